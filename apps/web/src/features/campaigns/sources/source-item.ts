import {
  SOURCE_SUMMARY_MAX,
  SOURCE_TITLE_MAX,
  type AddCampaignSourceRequest,
} from '@gem/contracts/campaign-sources';
import type { CompetitorSearchItem } from '@gem/contracts/competitor-search';
import type { FeedItem } from '@gem/contracts/market-research';
import { cutAtGrapheme } from '@gem/contracts/text-rules';

/**
 * Something 'Use in…' can bring in (issue 29): its title, link and summary, as a writing tool's
 * base content takes them (sourceAsBaseContent), and what adding it to a campaign sends.
 */
export type SourceItem = {
  title: string;
  url: string;
  summary: string;
  request: AddCampaignSourceRequest;
};

/** A Market Research item: the server reads it again by its id. */
export const marketResearchSource = (item: FeedItem): SourceItem => ({
  title: item.title,
  url: item.url,
  summary: item.content_text,
  request: { kind: 'market-research', itemId: item.id },
});

/** A competitor search result, as the page shows it (the server checks its link is a competitor's). */
export function competitorSource(item: CompetitorSearchItem): SourceItem {
  const title = cutAtGrapheme(item.title.trim(), SOURCE_TITLE_MAX);
  const snippet = cutAtGrapheme(item.snippet.trim(), SOURCE_SUMMARY_MAX);
  return {
    title: item.title,
    url: item.link,
    summary: item.snippet,
    request: { kind: 'competitor', link: item.link, title, snippet },
  };
}
