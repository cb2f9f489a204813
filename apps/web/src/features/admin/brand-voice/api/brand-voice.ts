import {
  brandProfileResponseSchema,
  brandVersionSchema,
  brandVersionsResponseSchema,
  brandVoicePaths,
  type BrandProfileResponse,
  type BrandProfileSave,
} from '@gem/contracts/brand-voice';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

/** GET: the version in force with its forms, or null when none is saved. */
export const brandProfileQueryOptions = queryOptions({
  queryKey: ['admin', 'brand-voice', 'current'],
  queryFn: ({ signal }) =>
    api.get(brandVoicePaths.adminProfile, { schema: brandProfileResponseSchema, signal }),
  // Another administrator may have saved since: read afresh whenever the page opens.
  staleTime: 0,
});

export function useBrandProfile() {
  return useQuery(brandProfileQueryOptions);
}

/** GET: every version, newest first. */
export const brandVersionsQueryOptions = queryOptions({
  queryKey: ['admin', 'brand-voice', 'versions'],
  queryFn: ({ signal }) =>
    api.get(brandVoicePaths.adminVersions, { schema: brandVersionsResponseSchema, signal }),
  staleTime: 0,
});

export function useBrandVersions() {
  return useQuery(brandVersionsQueryOptions);
}

/** GET: one version's profile and forms (a saved version never changes). */
export function brandVersionQueryOptions(version: number) {
  return queryOptions({
    queryKey: ['admin', 'brand-voice', 'version', version],
    queryFn: ({ signal }) =>
      api.get(brandVoicePaths.adminVersion.replace(':version', String(version)), {
        schema: brandVersionSchema,
        signal,
      }),
    staleTime: Infinity,
  });
}

export function useBrandVersion(version: number | null) {
  return useQuery({ ...brandVersionQueryOptions(version ?? 0), enabled: version !== null });
}

/** PUT: saves the profile as the next version; the answer is that version, shown at once. */
export function useSaveBrandProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (save: BrandProfileSave): Promise<BrandProfileResponse> =>
      api.request(brandVoicePaths.adminProfile, {
        method: 'PUT',
        body: save,
        schema: brandProfileResponseSchema,
      }),
    onSuccess: (saved) => {
      queryClient.setQueryData(brandProfileQueryOptions.queryKey, saved);
      void queryClient.invalidateQueries({ queryKey: brandVersionsQueryOptions.queryKey });
    },
  });
}
