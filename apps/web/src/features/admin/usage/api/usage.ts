import {
  adminPaths,
  modelPriceSchema,
  pricesResponseSchema,
  usageGenerationsResponseSchema,
  usageResponseSchema,
  usageStyleResponseSchema,
  type PriceInput,
  type UsagePeriod,
} from '@gem/contracts/admin-usage';
import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** The usage page's question: a range of UTC days, by day or week, optionally one person and one tool. */
export type UsageParams = { from: string; to: string; by: UsagePeriod; userId?: string; tool?: string };

/** The records of a figure: a range, and whatever narrows it (a person, a tool, a cause). */
export type RecordsParams = {
  from: string;
  to: string;
  userId?: string;
  tool?: string;
  model?: string;
  outcome?: 'succeeded' | 'failed' | 'cancelled';
  errorCode?: string;
};

/** The query string of a question, without the parts left out. */
export function searchOf(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== '') search.set(key, value);
  return search.toString();
}

export function usageQueryOptions(params: UsageParams) {
  return queryOptions({
    queryKey: ['admin', 'usage', params],
    queryFn: ({ signal }) =>
      api.get(`${adminPaths.usage}?${searchOf(params)}`, { schema: usageResponseSchema, signal }),
    // Usage moves with every generation: read it again whenever the page opens.
    staleTime: 0,
    placeholderData: (previous) => previous,
  });
}

/** Nothing is asked while the range is not one the server takes (the page says why). */
export function useUsage(params: UsageParams, enabled = true) {
  return useQuery({ ...usageQueryOptions(params), enabled });
}

/** What the brand voice's style check found per period and tool: the same question, per tool only. */
export function useUsageStyle(params: UsageParams, enabled = true) {
  const { userId: _person, ...question } = params;
  return useQuery({
    queryKey: ['admin', 'usage-style', question],
    queryFn: ({ signal }) =>
      api.get(`${adminPaths.usageStyle}?${searchOf(question)}`, { schema: usageStyleResponseSchema, signal }),
    staleTime: 0,
    placeholderData: (previous) => previous,
    enabled,
  });
}

/** The usage table as a CSV file, every row (the page shows the first ones). */
export async function downloadUsageCsv(params: UsageParams): Promise<{ blob: Blob; name: string }> {
  const blob = await api.download(`${adminPaths.usageCsv}?${searchOf(params)}`, { accept: 'text/csv' });
  return { blob, name: `gem-usage-${params.from}-to-${params.to}-by-${params.by}.csv` };
}

/** The records a figure is made of, newest first, a page at a time. */
export function useUsageRecords(params: RecordsParams) {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: ['admin', 'usage', 'records', params],
      queryFn: ({ signal, pageParam }) =>
        api.get(`${adminPaths.usageGenerations}?${searchOf({ ...params, before: pageParam })}`, {
          schema: usageGenerationsResponseSchema,
          signal,
        }),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last) => last.next ?? undefined,
    }),
  );
}

export const pricesQueryOptions = queryOptions({
  queryKey: ['admin', 'prices'],
  queryFn: ({ signal }) => api.get(adminPaths.prices, { schema: pricesResponseSchema, signal }),
});

export function usePrices() {
  return useQuery(pricesQueryOptions);
}

/** PUT a model's price; the usage figures' cost changes with it. */
export function useSetPrice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PriceInput) =>
      api.request(adminPaths.prices, { method: 'PUT', body: input, schema: modelPriceSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}

/** DELETE a model's price: its tokens are no longer priced. */
export function useRemovePrice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (model: string) =>
      api.request(adminPaths.price.replace(':model', encodeURIComponent(model)), { method: 'DELETE' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
