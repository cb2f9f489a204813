import { marketAreas } from '@gem/contracts/catalogue';

import { CardGrid } from '@/components/ui/card-grid';
import { Container } from '@/components/ui/container';
import { PageHeading } from '@/components/ui/page-heading';
import { MarketAreaCard } from '@/features/market-research/components/market-area-card';
import { useDocumentTitle } from '@/hooks/use-document-title';

import styles from './catalogue-page.module.css';

/** Every research area, each linking to its news feed. */
export function MarketResearchRoute() {
  useDocumentTitle('Market Research');
  return (
    <>
      <div className={styles.intro}>
        <Container className={styles.introInner}>
          <PageHeading
            eyebrow="News feeds"
            title="Market Research"
            description="Curated news for every market we follow, from priority clients to ESG."
          />
        </Container>
      </div>
      <Container className={styles.list}>
        <CardGrid label="All market areas">
          {marketAreas.map((area, index) => (
            <li key={area.slug}>
              <MarketAreaCard area={area} headingLevel="h2" eager={index < 4} />
            </li>
          ))}
        </CardGrid>
      </Container>
    </>
  );
}
