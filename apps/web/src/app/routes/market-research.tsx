import { marketAreas } from '@gem/contracts/catalogue';

import { CataloguePage } from '@/components/ui/catalogue-page';
import { MarketAreaCard } from '@/features/market-research/components/market-area-card';
import { useDocumentTitle } from '@/hooks/use-document-title';

/** Every research area, each linking to its news feed. */
export function MarketResearchRoute() {
  useDocumentTitle('Market Research');
  return (
    <CataloguePage
      eyebrow="News feeds"
      title="Market Research"
      description="Curated news for every market we follow, from priority clients to ESG."
      listLabel="All market areas"
    >
      {marketAreas.map((area, index) => (
        <li key={area.slug}>
          <MarketAreaCard area={area} headingLevel="h2" eager={index < 4} />
        </li>
      ))}
    </CataloguePage>
  );
}
