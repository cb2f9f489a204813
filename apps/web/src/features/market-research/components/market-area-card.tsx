import type { MarketArea } from '@gem/contracts/catalogue';

import { Badge } from '@/components/ui/badge';
import { MediaCard } from '@/components/ui/media-card';

type MarketAreaCardProps = {
  area: MarketArea;
  headingLevel?: 'h2' | 'h3';
  showSummary?: boolean;
  eager?: boolean;
};

function marketAreaPath(area: MarketArea): string {
  return `/market-research/${area.slug}`;
}

// The spec calls an area's children clients ("Looking for in-depth info on a specific client?").
function clientCount(count: number): string {
  return `${count} ${count === 1 ? 'client' : 'clients'}`;
}

export function MarketAreaCard({ area, headingLevel, showSummary = true, eager }: MarketAreaCardProps) {
  return (
    <MediaCard
      to={marketAreaPath(area)}
      title={area.name}
      imageSrc={area.photo}
      imageAlt={`${area.name} illustration`}
      description={showSummary ? area.summary : undefined}
      headingLevel={headingLevel}
      eager={eager}
      meta={area.children.length > 0 ? <Badge tone="brand">{clientCount(area.children.length)}</Badge> : null}
    />
  );
}
