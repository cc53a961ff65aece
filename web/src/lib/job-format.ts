import { ROOM_TYPE_LABELS, type Job } from '@roomstager/contracts';

const STATUS_LABELS: Record<string, string> = {
  pending: 'Pending',
  processing: 'Processing',
  completed: 'Completed',
  failed: 'Failed',
};

/** Any status the app does not know reads 'Pending'. */
export const statusLabel = (status: string): string => STATUS_LABELS[status] ?? 'Pending';

export const jobTitle = (job: Pick<Job, 'userLabel' | 'style'>): string => job.userLabel || `${job.style} staging`;

export const roomTypeLabel = (roomType: Job['roomType']): string => ROOM_TYPE_LABELS[roomType] ?? roomType;

/** 'Xm Ys' from the processing start and completion times, otherwise 'N/A'. */
export function processingTime(job: Pick<Job, 'processingStartedAt' | 'processingCompletedAt'>): string {
  if (!job.processingStartedAt || !job.processingCompletedAt) return 'N/A';
  const ms = Date.parse(job.processingCompletedAt) - Date.parse(job.processingStartedAt);
  if (!Number.isFinite(ms) || ms < 0) return 'N/A';
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
}

/** A failed job's credit is refunded. */
export const creditsUsedLabel = (job: Pick<Job, 'creditsUsed' | 'status'>): string =>
  job.creditsUsed === 0 ? '0 (refunded)' : String(job.creditsUsed);

export const isInProgress = (job: Pick<Job, 'status'> | null | undefined): boolean =>
  !!job && job.status !== 'completed' && job.status !== 'failed';

/** A job in progress, or one with variations asked for and not made yet: what a list polls for. */
export const isBeingMade = (job: Pick<Job, 'status' | 'moreVariations'> | null | undefined): boolean =>
  isInProgress(job) || (job?.moreVariations.pending ?? 0) > 0;

/** The small WebP of an image the API serves at `/api/images/{id}` (an original or a staged variation). */
export const thumbnailOf = (imageUrl: string): string => `${imageUrl}/thumbnail`;
