import { useQueryClient } from '@tanstack/react-query';
import { IDEMPOTENCY_KEY_HEADER } from '@roomstager/contracts';
import { queryKeys } from './query-keys.ts';

/** A job in progress, or a page listing one, is read again this often. */
export const JOB_POLL_MS = 2000;

export type Keyed<T> = T & { idempotencyKey: string };

/**
 * The variables of one press of Generate, Regenerate or Retry with its Idempotency-Key, made once
 * per press: a mutation's variables are fixed, so every attempt of that press (should a mutation
 * ever retry) sends the same key, and the server debits once.
 */
export function withIdempotencyKey<T extends object>(variables: T): Keyed<T> {
  return { ...variables, idempotencyKey: crypto.randomUUID() };
}

export const idempotencyHeader = (idempotencyKey: string) => ({ headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } });

/** After any change to jobs: the list and the session (credits), stats and credit history are read again. */
export function useRefreshAfterJobChange() {
  const queryClient = useQueryClient();
  return async (deletedId?: string) => {
    // A deleted job's own query would only answer 404 now: drop it instead of reading it again.
    if (deletedId) queryClient.removeQueries({ queryKey: queryKeys.job(deletedId), exact: true });
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.jobs, predicate: (q) => q.queryKey[1] !== deletedId }),
      queryClient.invalidateQueries({ queryKey: queryKeys.session }),
      queryClient.invalidateQueries({ queryKey: queryKeys.userStats }),
      queryClient.invalidateQueries({ queryKey: queryKeys.creditTransactions }),
    ]);
  };
}
