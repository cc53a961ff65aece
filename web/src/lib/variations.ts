import { useMutation, useQueryClient } from '@tanstack/react-query';
import { jobSchema } from '@roomstager/contracts';
import { apiJson } from './api-client.ts';
import { idempotencyHeader, useRefreshAfterJobChange } from './job-changes.ts';
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

/**
 * One more variation of a staging by an engine paid per image, one credit (one Idempotency-Key per
 * press: `withIdempotencyKey`). Afterwards the lists (which then poll while it is being made), the
 * balance and the history are read again.
 */
export function useRequestVariation() {
  const queryClient = useQueryClient();
  const refresh = useRefreshAfterJobChange();
  return useMutation({
    mutationFn: ({ jobId, idempotencyKey }: { jobId: string; idempotencyKey: string }) =>
      apiJson('POST', `/api/jobs/${jobId}/variations`, jobSchema, undefined, idempotencyHeader(idempotencyKey)),
    onSuccess: () => Promise.all([refresh(), queryClient.invalidateQueries({ queryKey: queryKeys.listings })]),
  });
}
