import { freeTools, tools } from '@gem/contracts/catalogue';
import { Link } from 'react-router';

import { Badge } from '@/components/ui/badge';
import { CataloguePage } from '@/components/ui/catalogue-page';
import { Notice } from '@/components/ui/notice';
import { ToolCard } from '@/features/tools/components/tool-card';
import { useDocumentTitle } from '@/hooks/use-document-title';

/** The tools menu: every tool, in catalogue order. */
export function ToolsRoute() {
  useDocumentTitle('Tools');
  return (
    <CataloguePage
      eyebrow="GEM toolkit"
      title="Tools"
      description="Pick a tool to turn base content into posts, ads, articles, briefs and more."
      note={
        <>
          <Badge tone="success">Free</Badge>
          <span>{freeTools.map((tool) => tool.name).join(', ')} works without signing in.</span>
        </>
      }
      toolbar={
        <Notice>
          A finished brief becomes a campaign, where everything made from it is kept together.{' '}
          <Link to="/campaigns">Open your campaigns</Link>
        </Notice>
      }
      listLabel="All tools"
    >
      {tools.map((tool, index) => (
        <li key={tool.slug}>
          <ToolCard tool={tool} headingLevel="h2" eager={index < 4} />
        </li>
      ))}
    </CataloguePage>
  );
}
