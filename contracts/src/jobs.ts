import { z } from 'zod';
import { ROOM_TYPES, STYLES } from './constants.ts';

export const JOB_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const USER_LABEL_MAX_LENGTH = 100;
export const FILENAME_MAX_LENGTH = 255;
/** Jobs per page of `GET /api/jobs?page=N`. */
export const JOBS_PAGE_SIZE = 20;

/** `POST /api/upload`: the file as base64 (the part after the data URL's comma) and its name, a label only. */
export const uploadRequestSchema = z.strictObject({
  imageData: z.string().min(1, { error: 'No image data' }),
  filename: z.string().max(FILENAME_MAX_LENGTH),
});
export type UploadRequest = z.infer<typeof uploadRequestSchema>;

/** `imageUrl` is `/api/images/{id}`: served to its owner only. */
export const uploadResponseSchema = z.object({ imageUrl: z.string() });
export type UploadResponse = z.infer<typeof uploadResponseSchema>;

const userLabelSchema = z.string().trim().max(USER_LABEL_MAX_LENGTH, {
  error: `Label must be at most ${USER_LABEL_MAX_LENGTH} characters`,
});

/**
 * Request header of the three calls that debit a credit (`POST /api/jobs`, `.../regenerate`,
 * `.../retry`; docs/decisions/0015-idempotent-job-submission.md). Optional, but the web app sends
 * a fresh UUID per user action and the same one again if that action is retried. The first success is stored with the job: a replay with the
 * same key and the same body answers that job again with the first answer's status (201 for a
 * creation or regeneration, 200 for a retry) and debits nothing; the same key with a different
 * body (or on another of the three calls) is a 422 `IDEMPOTENCY_KEY_REUSED` and changes nothing.
 * Keys are per user; a deleted job frees its key.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** 8-100 letters, digits, '-' or '_': a UUID (the web app's choice) fits. */
export const idempotencyKeySchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,100}$/, { error: 'Idempotency-Key must be 8-100 letters, digits, "-" or "_" (a UUID, for example)' });

/** `POST /api/jobs`: one credit is debited in the same transaction that creates the job. */
export const createJobRequestSchema = z.strictObject({
  originalImageUrl: z.string().min(1),
  style: z.enum(STYLES),
  userLabel: userLabelSchema.nullish(),
  roomType: z.enum(ROOM_TYPES).optional(),
});
export type CreateJobRequest = z.infer<typeof createJobRequestSchema>;

/** `PATCH /api/jobs/{id}`. */
export const updateJobRequestSchema = z.strictObject({ userLabel: userLabelSchema });
export type UpdateJobRequest = z.infer<typeof updateJobRequestSchema>;

/** `POST /api/jobs/{id}/regenerate`: a new job on the same original, one credit. */
export const regenerateJobRequestSchema = z.strictObject({
  style: z.enum(STYLES).optional(),
  roomType: z.enum(ROOM_TYPES).optional(),
});
export type RegenerateJobRequest = z.infer<typeof regenerateJobRequestSchema>;

/** Why a generative answer is not the same room (the structure lock's reasons). */
export const DRIFT_REASONS = [
  'framing_changed',
  'opening_changed',
  'walls_recoloured',
  'floor_resurfaced',
  'ceiling_fixture_changed',
  'built_ins_changed',
] as const;
export type DriftReason = (typeof DRIFT_REASONS)[number];

/** The structure lock's verdict on a generative engine's answer: faithful (the room is the original's pixels) or drift. */
export const structureReportSchema = z.object({
  verdict: z.enum(['faithful', 'drift']),
  /** 0..1; drift below 0.5. */
  score: z.number().min(0).max(1),
  reasons: z.array(z.enum(DRIFT_REASONS)),
});
export type StructureReport = z.infer<typeof structureReportSchema>;

/** One variation of a staging (issue 15): `stagedImageUrl` is `/api/images/{id}`, served to its owner only. */
export const variationSchema = z.object({ id: z.uuid(), stagedImageUrl: z.string() });
export type Variation = z.infer<typeof variationSchema>;

/**
 * Variations one staging may have, counting those asked for and not yet made: a staging by an
 * engine paid per image starts with one, and `POST /api/jobs/{id}/variations` adds one per credit.
 */
export const MAX_VARIATIONS_PER_JOB = 6;

/** What a staging offers beyond its variations (docs/decisions/0026-more-variations-for-a-credit.md). */
export const moreVariationsSchema = z.object({
  /** `POST /api/jobs/{id}/variations` would be accepted now, credits aside: completed, by an engine paid per image, under the cap. */
  allowed: z.boolean(),
  /** Variations asked for and not made yet (queued or being made): one credit each, already debited. */
  pending: z.number().int().nonnegative(),
  /** Variations asked for that could not be made: each credit was refunded. */
  refunded: z.number().int().nonnegative(),
});
export type MoreVariations = z.infer<typeof moreVariationsSchema>;

export const jobSchema = z.object({
  id: z.uuid(),
  originalImageUrl: z.string(),
  /** Null until the job is completed; always the chosen variation's image. */
  stagedImageUrl: z.string().nullable(),
  /** The results to choose from, in the engine's order (issue 15); empty until the job is completed. */
  variations: z.array(variationSchema),
  /** The variation `stagedImageUrl` shows (`POST /api/jobs/{id}/variations/{variationId}/choose`); null until completed. */
  chosenVariationId: z.uuid().nullable(),
  /** Whether one more variation can be asked for (one credit), and the requests not yet made or refunded. */
  moreVariations: moreVariationsSchema,
  /** Small WebP of the result (or of the original until there is one), for gallery cards. */
  thumbnailUrl: z.string(),
  style: z.enum(STYLES),
  roomType: z.enum(ROOM_TYPES),
  userLabel: z.string().nullable(),
  status: z.enum(JOB_STATUSES),
  errorMessage: z.string().nullable(),
  /** Credits this job cost in the end: 1, or 0 once a failure was refunded. */
  creditsUsed: z.number().int().nonnegative(),
  createdAt: z.iso.datetime({ offset: true }),
  processingStartedAt: z.iso.datetime({ offset: true }).nullable(),
  processingCompletedAt: z.iso.datetime({ offset: true }).nullable(),
  /** The structure lock's verdict for a generative engine's staging; null for the local engine (which never alters the room). */
  structure: structureReportSchema.nullable(),
});
export type Job = z.infer<typeof jobSchema>;

/** `GET /api/jobs` without a page: every job of the user, newest first. */
export const jobListResponseSchema = z.array(jobSchema);

/** `GET /api/jobs?page=N` (N from 1): one page of 20 and the total. */
export const jobPageResponseSchema = z.object({
  jobs: z.array(jobSchema),
  total: z.number().int().nonnegative(),
  page: z.number().int().positive(),
  pageSize: z.number().int().positive(),
});
export type JobPage = z.infer<typeof jobPageResponseSchema>;

export const ROOM_TYPE_LABELS: Readonly<Record<(typeof ROOM_TYPES)[number], string>> = {
  living_room: 'Living room',
  bedroom: 'Bedroom',
  dining_room: 'Dining room',
  kitchen: 'Kitchen',
  office: 'Office',
};

export const STYLE_LABELS: Readonly<Record<(typeof STYLES)[number], string>> = {
  modern: 'Modern',
  traditional: 'Traditional',
  minimalist: 'Minimalist',
  luxury: 'Luxury',
};
