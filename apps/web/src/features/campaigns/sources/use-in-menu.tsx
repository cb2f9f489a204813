import { sourceAsBaseContent } from '@gem/contracts/campaign-sources';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';

import { MenuButton, type MenuEntry } from '@/components/ui/menu-button';
import { baseContentState } from '@/lib/writing-tools/base-content-state';

import type { SourceItem } from './source-item';

// Loaded when it is first opened: most visits to a feed never add anything to a campaign.
const AddToCampaignDialog = lazy(() =>
  import('./add-to-campaign-dialog').then((module) => ({ default: module.AddToCampaignDialog })),
);

/** The writing tools an item can open, with the item as their base content. */
export const useInTools = [
  { label: 'Article', path: '/tools/article' },
  { label: 'Social media post', path: '/tools/social-media-post' },
  { label: 'Paid ads', path: '/tools/paid-ads' },
  { label: 'Teaser', path: '/tools/teaser-generator' },
] as const;

/**
 * 'Use in…' on a Market Research item or a competitor search result (issue 29): a writing tool
 * opened with the item (title, link, summary) as its base content, or 'Add to campaign…'.
 */
export function UseInMenu({ source }: { source: SourceItem }) {
  const navigate = useNavigate();
  const [adding, setAdding] = useState(false);
  const entries: MenuEntry[] = [
    ...useInTools.map((tool) => ({
      label: tool.label,
      onSelect: () => void navigate(tool.path, { state: baseContentState(sourceAsBaseContent(source)) }),
    })),
    { label: 'Add to campaign…', separated: true, onSelect: () => setAdding(true) },
  ];
  return (
    <>
      <MenuButton label="Use in…" labelDetail={`: ${source.title}`} entries={entries} />
      {adding ? (
        <Suspense fallback={null}>
          <AddToCampaignDialog source={source} onClose={() => setAdding(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
