import {
  visualBrandCheckerPaths,
  visualBrandCheckerSettingsSchema,
  type VisualBrandCheckerSettings,
} from '@gem/contracts/visual-brand-checker';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

export function getVisualBrandChecker(signal?: AbortSignal): Promise<VisualBrandCheckerSettings> {
  return api.get(visualBrandCheckerPaths.settings, { schema: visualBrandCheckerSettingsSchema, signal });
}

export const visualBrandCheckerQueryOptions = queryOptions({
  queryKey: ['visual-brand-checker', 'settings'],
  queryFn: ({ signal }) => getVisualBrandChecker(signal),
  staleTime: 5 * 60_000,
});

export function useVisualBrandChecker() {
  return useQuery(visualBrandCheckerQueryOptions);
}
