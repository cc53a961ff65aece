import type { Job, JobStatus } from '@roomstager/contracts';

/** A job as the API answers it (whole, since answers are parsed by their contract), in `status`. */
export const jobIn = (status: JobStatus): Job => ({
  id: '7b0d1c52-54a4-4c1f-9d0e-2f4a5b6c7d8e',
  originalImageUrl: '/api/images/1',
  stagedImageUrl: status === 'completed' ? '/api/images/2' : null,
  variations: status === 'completed' ? [{ id: '9c1e2d3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f', stagedImageUrl: '/api/images/2' }] : [],
  chosenVariationId: status === 'completed' ? '9c1e2d3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f' : null,
  moreVariations: { allowed: false, pending: 0, refunded: 0 },
  thumbnailUrl: '/api/images/1/thumbnail',
  style: 'modern',
  roomType: 'living_room',
  userLabel: null,
  status,
  errorMessage: null,
  creditsUsed: 1,
  createdAt: '2026-01-01T10:00:00.000Z',
  processingStartedAt: null,
  processingCompletedAt: null,
  structure: null,
});
