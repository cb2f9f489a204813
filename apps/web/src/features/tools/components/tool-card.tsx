import type { Tool } from '@gem/contracts/catalogue';

import { Badge } from '@/components/ui/badge';
import { MediaCard } from '@/components/ui/media-card';

type ToolCardProps = {
  tool: Tool;
  headingLevel?: 'h2' | 'h3';
  /** The menu shows each tool's one-line summary; the home teaser stays compact. */
  showSummary?: boolean;
  eager?: boolean;
};

function toolPath(tool: Tool): string {
  return `/tools/${tool.slug}`;
}

export function ToolCard({ tool, headingLevel, showSummary = true, eager }: ToolCardProps) {
  return (
    <MediaCard
      to={toolPath(tool)}
      title={tool.name}
      imageSrc={tool.photo}
      imageAlt={`${tool.name} illustration`}
      description={showSummary ? tool.summary : undefined}
      headingLevel={headingLevel}
      eager={eager}
      meta={tool.authRequired ? null : <Badge tone="success">Free · no sign-in needed</Badge>}
    />
  );
}
