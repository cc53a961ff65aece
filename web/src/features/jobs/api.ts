import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IDEMPOTENCY_KEY_HEADER, type CreateJobRequest, type Job, type JobPage, type RegenerateJobRequest } from '@roomstager/contracts';
import { apiJson, apiRequest, throwIfResNotOk } from '../../lib/api-client.ts';
import { SESSION_QUERY_KEY } from '../auth/use-session.ts';
import { isInProgress } from './format.ts';

export const JOBS_KEY = '/api/jobs';
const FIVE_MINUTES = 5 * 60 * 1000;

const POLL_MS = 2000;
const hasJobInProgress = (page: JobPage | undefined) => !!page?.jobs.some(isInProgress);

/**
 * A page of the job list, cached 5 min and not read again on focus. While any job on it is pending
 * or processing it is read every 2 s, so its cards and the dialog follow the job to the end. It is
 * read again on mount when it holds such a job, or when it went stale (a job created or changed
 * elsewhere invalidated it): a cached page would hide that change.
 */
export function jobPageQuery(page: number) {
  return queryOptions({
    queryKey: [JOBS_KEY, { page }],
    queryFn: ({ signal }) => fetchJobPage(page, signal),
    staleTime: FIVE_MINUTES,
    gcTime: 2 * FIVE_MINUTES,
    refetchOnWindowFocus: false,
    refetchOnMount: (query) => (hasJobInProgress(query.state.data) ? 'always' : true),
    refetchInterval: (query) => (hasJobInProgress(query.state.data) ? POLL_MS : false),
    placeholderData: (previous) => previous,
  });
}

export const useJobPage = (page: number) => useQuery(jobPageQuery(page));

async function fetchJobPage(page: number, signal: AbortSignal): Promise<JobPage> {
  const res = await fetch(`${JOBS_KEY}?page=${page}`, { credentials: 'include', signal });
  await throwIfResNotOk(res);
  return (await res.json()) as JobPage;
}

const isFinished = (job: Job | null | undefined) => job?.status === 'completed' || job?.status === 'failed';

/** A job is polled every 2 s until it is completed or failed. */
export function useJob(id: string | null) {
  return useQuery<Job | null>({
    queryKey: [JOBS_KEY, id],
    enabled: id !== null,
    refetchInterval: (query) => (isFinished(query.state.data) ? false : POLL_MS),
  });
}

/** After any change to jobs: the list and the session (credits) are read again. */
function useRefreshAfterJobChange() {
  const queryClient = useQueryClient();
  return async (deletedId?: string) => {
    // A deleted job's own query would only answer 404 now: drop it instead of reading it again.
    if (deletedId) queryClient.removeQueries({ queryKey: [JOBS_KEY, deletedId], exact: true });
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: [JOBS_KEY], predicate: (q) => q.queryKey[1] !== deletedId }),
      queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY }),
      queryClient.invalidateQueries({ queryKey: ['/api/users/stats'] }),
      queryClient.invalidateQueries({ queryKey: ['/api/credits/transactions'] }),
    ]);
  };
}

type Keyed<T> = T & { idempotencyKey: string };

/**
 * The variables of one press of Generate, Regenerate or Retry with its Idempotency-Key (CR-03),
 * made once per press: a mutation's variables are fixed, so every attempt of that press (should a
 * mutation ever retry) sends the same key, and the server debits once.
 */
export function withIdempotencyKey<T extends object>(variables: T): Keyed<T> {
  return { ...variables, idempotencyKey: crypto.randomUUID() };
}
const keyHeader = (idempotencyKey: string) => ({ [IDEMPOTENCY_KEY_HEADER]: idempotencyKey });

export const createJob = ({ idempotencyKey, ...body }: Keyed<CreateJobRequest>) => apiJson<Job>('POST', JOBS_KEY, body, keyHeader(idempotencyKey));

export const regenerateJob = ({ id, idempotencyKey, ...body }: Keyed<RegenerateJobRequest & { id: string }>) =>
  apiJson<Job>('POST', `${JOBS_KEY}/${id}/regenerate`, body, keyHeader(idempotencyKey));

export const retryJob = ({ id, idempotencyKey }: Keyed<{ id: string }>) => apiJson<Job>('POST', `${JOBS_KEY}/${id}/retry`, undefined, keyHeader(idempotencyKey));

export function useCreateJob() {
  const refresh = useRefreshAfterJobChange();
  return useMutation({ mutationFn: createJob, onSuccess: () => refresh() });
}

export function useUpdateLabel() {
  const refresh = useRefreshAfterJobChange();
  return useMutation({
    mutationFn: ({ id, userLabel }: { id: string; userLabel: string }) => apiJson<Job>('PATCH', `${JOBS_KEY}/${id}`, { userLabel }),
    onSuccess: () => refresh(),
  });
}

export function useDeleteJob() {
  const refresh = useRefreshAfterJobChange();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest('DELETE', `${JOBS_KEY}/${id}`);
    },
    onSuccess: (_data, id) => refresh(id),
  });
}

export function useRegenerateJob() {
  const refresh = useRefreshAfterJobChange();
  return useMutation({ mutationFn: regenerateJob, onSuccess: () => refresh() });
}

export function useRetryJob() {
  const refresh = useRefreshAfterJobChange();
  return useMutation({ mutationFn: retryJob, onSuccess: () => refresh() });
}
