import { marketAreas } from '@gem/contracts/catalogue';
import type { Config, FeedsConfig } from '../../config';

/** Every key the catalogue knows: each area and each of its sub-areas. */
export function catalogueFeedKeys(): string[] {
  return marketAreas.flatMap((area) => [area.slug, ...area.children.map((c) => `${area.slug}/${c.slug}`)]);
}

/** The feeds file's keys that name no market area or "area/sub-area" of the catalogue, one problem each. */
export function unknownFeedKeyProblems({ file, sources }: Pick<FeedsConfig, 'file' | 'sources'>): string[] {
  const known = new Set(catalogueFeedKeys());
  return sources
    .filter((source) => !known.has(source.key))
    .map(
      (source) =>
        `GEM_FEEDS_FILE (${file}): "${source.key}" is not a market area or "area/sub-area" of the catalogue`,
    );
}

/** The check the composition roots hand to loadConfig/parseConfig (config imports no modules). */
export const checkMarketFeedKeys = (config: Config): string[] => unknownFeedKeyProblems(config.feeds);
