import type { UseQueryResult } from '@tanstack/react-query';
import { useEffect } from 'react';

import { toast } from '@/lib/toast';

/** Spec §8: a brief call that fails says so in a toast, once per failure (not per retry). */
export function useErrorToast(query: Pick<UseQueryResult, 'isError' | 'errorUpdatedAt'>, text: string) {
  const { isError, errorUpdatedAt } = query;
  useEffect(() => {
    if (isError) toast.error(text);
  }, [isError, errorUpdatedAt, text]);
}
