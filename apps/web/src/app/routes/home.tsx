import { marketAreas, tools } from '@gem/contracts/catalogue';

import { ButtonLink } from '@/components/ui/button';
import { CardGrid } from '@/components/ui/card-grid';
import { Container } from '@/components/ui/container';
import { Eyebrow } from '@/components/ui/eyebrow';
import { ArrowRightIcon } from '@/components/ui/icons';
import { SectionHeading } from '@/components/ui/section-heading';
import { MarketAreaCard } from '@/features/market-research/components/market-area-card';
import { ToolCard } from '@/features/tools/components/tool-card';
import { useDocumentTitle } from '@/hooks/use-document-title';

import styles from './home.module.css';

// Spec §9: each home teaser shows 4 items.
const teaserSize = 4;

export function HomeRoute() {
  useDocumentTitle('Home');
  const clientCount = marketAreas.reduce((sum, area) => sum + area.children.length, 0);

  return (
    <>
      <section className={styles.hero} aria-labelledby="home-title">
        <Container className={styles.heroInner}>
          <div className={styles.heroText}>
            <Eyebrow className={styles.eyebrow}>Marketing workspace</Eyebrow>
            <h1 id="home-title" className={styles.title}>
              Welcome to <span className={styles.accent}>Generative and enhanced marketing</span>
            </h1>
            <p className={styles.intro}>
              Follow the news that matters to our markets and clients, then turn it into articles, posts, ads
              and briefs with AI-assisted tools.
            </p>
            <div className={styles.actions}>
              <ButtonLink to="/tools">
                Explore tools
                <ArrowRightIcon />
              </ButtonLink>
              <ButtonLink to="/market-research" variant="secondary">
                Browse market research
              </ButtonLink>
            </div>
            <dl className={styles.stats}>
              <div className={styles.stat}>
                <dt>AI-assisted tools</dt>
                <dd>{tools.length}</dd>
              </div>
              <div className={styles.stat}>
                <dt>Market areas</dt>
                <dd>{marketAreas.length}</dd>
              </div>
              <div className={styles.stat}>
                <dt>Priority clients followed</dt>
                <dd>{clientCount}</dd>
              </div>
            </dl>
          </div>
          <div className={styles.heroArt}>
            <img src="/images/hero.svg" alt="" width={480} height={360} />
          </div>
        </Container>
      </section>

      <Container>
        <section className={styles.section} aria-labelledby="home-market-research">
          <SectionHeading
            id="home-market-research"
            title="Market Research"
            description="Curated news feeds for every market area we follow."
            action={{
              to: '/market-research',
              label: 'View more',
              accessibleLabel: 'View more market research',
            }}
          />
          <CardGrid columns="four" labelledBy="home-market-research">
            {marketAreas.slice(0, teaserSize).map((area) => (
              <li key={area.slug}>
                <MarketAreaCard area={area} showSummary={false} />
              </li>
            ))}
          </CardGrid>
        </section>

        <section className={styles.section} aria-labelledby="home-tools">
          <SectionHeading
            id="home-tools"
            title="Tools"
            description="Generators and helpers that turn base content into finished material."
            action={{ to: '/tools', label: 'View more', accessibleLabel: 'View more tools' }}
          />
          <CardGrid columns="four" labelledBy="home-tools">
            {tools.slice(0, teaserSize).map((tool) => (
              <li key={tool.slug}>
                <ToolCard tool={tool} showSummary={false} />
              </li>
            ))}
          </CardGrid>
        </section>
      </Container>
    </>
  );
}
