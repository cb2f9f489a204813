import { campaignTypes, type CampaignType } from '@gem/contracts/brief-creator';
import { campaignStatuses, type CampaignsQuery, type CampaignStatus } from '@gem/contracts/campaigns';

/** The list's filters as the URL names them: `?q=`, `?status=`, `?owner=`, `?type=`. */
export const filterParams = ['q', 'status', 'owner', 'type'] as const;
export type FilterParam = (typeof filterParams)[number];

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  (values as readonly (string | null)[]).includes(value) ? (value as T) : undefined;

/** What the URL asks the list for; a value the list does not know is left out. */
export function filtersOfParams(params: URLSearchParams): CampaignsQuery {
  const q = params.get('q')?.trim();
  return {
    ...(q ? { q } : {}),
    ...optional('status', oneOf<CampaignStatus>(campaignStatuses, params.get('status'))),
    ...optional('owner', oneOf(['me', 'others'] as const, params.get('owner'))),
    ...optional('campaignType', oneOf<CampaignType>(campaignTypes, params.get('type'))),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/** True when any filter narrows the list. */
export const isFiltered = (query: CampaignsQuery): boolean => Object.keys(query).length > 0;

/** The URL with one filter set (or taken off when blank), the others as they were. */
export function withFilter(params: URLSearchParams, name: FilterParam, value: string): URLSearchParams {
  const next = new URLSearchParams(params);
  if (value.trim() === '') next.delete(name);
  else next.set(name, value);
  return next;
}

/** The URL with every filter taken off. */
export function withoutFilters(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of filterParams) next.delete(name);
  return next;
}
