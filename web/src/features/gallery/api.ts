import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  downloadSizesResponseSchema,
  jobPageResponseSchema,
  jobSchema,
  shareResponseSchema,
  shareStateResponseSchema,
  type DownloadSize,
  type JobPage,
  type RegenerateJobRequest,
} from '@roomstager/contracts';
import { apiJson, apiRequest } from '../../lib/api-client.ts';
import { idempotencyHeader, JOB_POLL_MS, useRefreshAfterJobChange, type Keyed } from '../../lib/job-changes.ts';
import { isBeingMade } from '../../lib/job-format.ts';
import { queryKeys } from '../../lib/query-keys.ts';

const FIVE_MINUTES = 5 * 60 * 1000;

const hasJobInProgress = (page: JobPage | undefined) => !!page?.jobs.some(isBeingMade);

/**
 * A page of the job list, cached 5 min and not read again on focus. While any job on it is pending
 * or processing, or has variations being made, it is read every 2 s (not while the page is
 * hidden), so its cards and the dialog follow the job to the end. It is read again on mount when
 * it holds such a job, or when it went stale (a job created or changed elsewhere invalidated it):
 * a cached page would hide that change.
 */
export function jobPageQuery(page: number) {
  return queryOptions({
    queryKey: queryKeys.jobPage(page),
    queryFn: ({ signal }) => apiJson('GET', `/api/jobs?page=${page}`, jobPageResponseSchema, undefined, { signal }),
    staleTime: FIVE_MINUTES,
    gcTime: 2 * FIVE_MINUTES,
    refetchOnWindowFocus: false,
    refetchOnMount: (query) => (hasJobInProgress(query.state.data) ? 'always' : true),
    refetchInterval: (query) => (hasJobInProgress(query.state.data) ? JOB_POLL_MS : false),
    refetchIntervalInBackground: false,
    placeholderData: (previous) => previous,
  });
}

export const useJobPage = (page: number) => useQuery(jobPageQuery(page));

export const regenerateJob = ({ id, idempotencyKey, ...body }: Keyed<RegenerateJobRequest & { id: string }>) =>
  apiJson('POST', `/api/jobs/${id}/regenerate`, jobSchema, body, idempotencyHeader(idempotencyKey));

export const retryJob = ({ id, idempotencyKey }: Keyed<{ id: string }>) =>
  apiJson('POST', `/api/jobs/${id}/retry`, jobSchema, undefined, idempotencyHeader(idempotencyKey));

export function useUpdateLabel() {
  const refresh = useRefreshAfterJobChange();
  return useMutation({
    mutationFn: ({ id, userLabel }: { id: string; userLabel: string }) => apiJson('PATCH', `/api/jobs/${id}`, jobSchema, { userLabel }),
    onSuccess: () => refresh(),
  });
}

export function useDeleteJob() {
  const refresh = useRefreshAfterJobChange();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest('DELETE', `/api/jobs/${id}`);
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

/** An image's bytes, for a download under its own file name. */
export async function fetchImage(url: string): Promise<Blob> {
  return (await apiRequest('GET', url)).blob();
}

/** The sizes this account may download (4K after buying the Enterprise pack): read each time a dialog asks, as a purchase may have changed it. */
export const useDownloadSizes = () =>
  useQuery({
    queryKey: queryKeys.downloadSizes,
    queryFn: ({ signal }) => apiJson('GET', '/api/downloads/sizes', downloadSizesResponseSchema, undefined, { signal }),
    staleTime: 0,
    refetchOnMount: 'always',
    refetchOnWindowFocus: false,
  });

/** The staged photo of a job at a size, with the "Virtually Staged" stamp or without. */
export const stagedDownloadUrl = (jobId: string, size: DownloadSize, label: boolean) => `/api/jobs/${jobId}/download?size=${size}&label=${label ? 1 : 0}`;

/** Whether the job has a public link, and since when (its address was shown once, when made). */
export const useShareState = (jobId: string) =>
  useQuery({ queryKey: queryKeys.jobShare(jobId), queryFn: ({ signal }) => apiJson('GET', `/api/jobs/${jobId}/share`, shareStateResponseSchema, undefined, { signal }) });

/** A new public link to a job (the job's earlier link stops working). */
export function useCreateShare(jobId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson('POST', `/api/jobs/${jobId}/share`, shareResponseSchema),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.jobShare(jobId) }),
  });
}

/** Turns off the job's public link. */
export function useRevokeShare(jobId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await apiRequest('DELETE', `/api/jobs/${jobId}/share`);
    },
    // Known at once: no moment where the panel still says the link is on.
    onSuccess: () => queryClient.setQueryData(queryKeys.jobShare(jobId), { createdAt: null }),
  });
}
