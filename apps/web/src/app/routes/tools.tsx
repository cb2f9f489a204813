import { freeTools, tools } from '@gem/contracts/catalogue';

import { Badge } from '@/components/ui/badge';
import { CardGrid } from '@/components/ui/card-grid';
import { Container } from '@/components/ui/container';
import { PageHeading } from '@/components/ui/page-heading';
import { ToolCard } from '@/features/tools/components/tool-card';
import { useDocumentTitle } from '@/hooks/use-document-title';

import styles from './catalogue-page.module.css';

/** The tools menu: every tool, in catalogue order. */
export function ToolsRoute() {
  useDocumentTitle('Tools');
  return (
    <>
      <div className={styles.intro}>
        <Container className={styles.introInner}>
          <PageHeading
            eyebrow="GEM toolkit"
            title="Tools"
            description="Pick a tool to turn base content into posts, ads, articles, briefs and more."
          />
          <p className={styles.note}>
            <Badge tone="success">Free</Badge>
            <span>{freeTools.map((tool) => tool.name).join(', ')} works without signing in.</span>
          </p>
        </Container>
      </div>
      <Container className={styles.list}>
        <CardGrid label="All tools">
          {tools.map((tool, index) => (
            <li key={tool.slug}>
              <ToolCard tool={tool} headingLevel="h2" eager={index < 4} />
            </li>
          ))}
        </CardGrid>
      </Container>
    </>
  );
}
