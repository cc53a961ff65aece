import { useMutation, useQueryClient } from '@tanstack/react-query';
import { jobSchema } from '@roomstager/contracts';
import { apiJson } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

/**
 * Choosing one of a staging's variations makes it the staged photo everywhere (gallery, listing,
 * downloads): the job lists and the listings are read again, credits do not move.
 */
export function useChooseVariation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ jobId, variationId }: { jobId: string; variationId: string }) =>
      apiJson('POST', `/api/jobs/${jobId}/variations/${variationId}/choose`, jobSchema),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.jobs }),
        queryClient.invalidateQueries({ queryKey: queryKeys.listings }),
      ]),
  });
}
