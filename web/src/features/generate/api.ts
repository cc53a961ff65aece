import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { jobSchema, type CreateJobRequest, type Job } from '@roomstager/contracts';
import { apiJson, apiJsonOrNull } from '../../lib/api-client.ts';
import { idempotencyHeader, JOB_POLL_MS, useRefreshAfterJobChange, type Keyed } from '../../lib/job-changes.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { uploadPhoto } from '../../lib/upload.ts';

/** POST /api/upload of the chosen file: pending from the press, while the body is still being built. */
export function useUpload() {
  return useMutation({ mutationFn: uploadPhoto });
}

export const createJob = ({ idempotencyKey, ...body }: Keyed<CreateJobRequest>) =>
  apiJson('POST', '/api/jobs', jobSchema, body, idempotencyHeader(idempotencyKey));

export function useCreateJob() {
  const refresh = useRefreshAfterJobChange();
  return useMutation({ mutationFn: createJob, onSuccess: () => refresh() });
}

const isFinished = (job: Job | null | undefined) => job?.status === 'completed' || job?.status === 'failed';

/** A job is polled every 2 s until it is completed or failed. */
function jobQuery(id: string | null) {
  return queryOptions({
    queryKey: queryKeys.job(id),
    queryFn: ({ signal }) => apiJsonOrNull(`/api/jobs/${id}`, jobSchema, { signal }),
    enabled: id !== null,
    refetchInterval: (query) => (isFinished(query.state.data) ? false : JOB_POLL_MS),
  });
}

export const useJob = (id: string | null) => useQuery(jobQuery(id));
