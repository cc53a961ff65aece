import { z } from 'zod';
import { ROOM_TYPES, STYLES, type CreditPackId } from './constants.ts';
import { FILENAME_MAX_LENGTH, idempotencyKeySchema, JOB_STATUSES, uploadRequestSchema } from './jobs.ts';

// The public API of the Enterprise pack (/api/v1, Bearer keys) and the app's calls that manage its
// keys. The handlers validate with these schemas and the OpenAPI document is generated from them
// (V1_OPERATIONS below), so the two cannot drift.

/** What every secret API key starts with, so a leaked one is recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = 'rs_live_';
/** Characters of a key shown after it was created: the prefix and the first 8 of its secret part. */
export const API_KEY_SHOWN_LENGTH = API_KEY_PREFIX.length + 8;
const API_KEY_NAME_MAX_LENGTH = 100;
/** Keys an account may hold at once (revoked ones do not count). */
export const MAX_API_KEYS = 20;
/** The pack whose purchase opens the API. */
export const API_PACK_ID: CreditPackId = 'enterprise';

/** An API key as listed: never its secret, only the part shown. */
export const apiKeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The key's first characters (`rs_live_` and 8 more), to tell keys apart. */
  prefix: z.string(),
  createdAt: z.iso.datetime({ offset: true }),
  lastUsedAt: z.iso.datetime({ offset: true }).nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** `GET /api/api-keys` (app, session): whether the account may use the API, and its keys. */
export const apiKeysResponseSchema = z.object({
  /** Whether the account holds a purchase of the Enterprise pack. */
  enabled: z.boolean(),
  keys: z.array(apiKeySchema),
});
export type ApiKeysResponse = z.infer<typeof apiKeysResponseSchema>;

/** `POST /api/api-keys` (app, session). */
export const createApiKeyRequestSchema = z.strictObject({
  name: z.string().trim().min(1, { error: 'Name the key' }).max(API_KEY_NAME_MAX_LENGTH, { error: `Name must be at most ${API_KEY_NAME_MAX_LENGTH} characters` }),
});

/** The new key with its secret: the only answer that ever carries it. */
export const createdApiKeySchema = z.object({ key: apiKeySchema, secret: z.string().startsWith(API_KEY_PREFIX) });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

/** `GET /api/api-keys/webhook-secret` (app, session): the account's webhook signing secret. */
export const webhookSecretResponseSchema = z.object({ secret: z.string() });
export type WebhookSecretResponse = z.infer<typeof webhookSecretResponseSchema>;

// ---------------------------------------------------------------------------------------------
// /api/v1

/** Header of the signature on every webhook delivery: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'RoomStager-Signature';
export const WEBHOOK_EVENTS = ['job.completed', 'job.failed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** Every error of /api/v1: a stable code to branch on and a sentence for a person. */
export const apiErrorSchema = z
  .object({
    error: z.object({
      code: z.string().meta({ examples: ['INVALID_API_KEY', 'INSUFFICIENT_CREDITS', 'NOT_FOUND'] }),
      message: z.string(),
      details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    }),
  })
  .meta({ id: 'Error' });
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

/** `POST /api/v1/images` as JSON: the same body as the app's upload (base64 of a JPEG or PNG, at most 10 MB, and a file name). */
/** The form field of a multipart `POST /api/v1/images`. */
export const API_UPLOAD_FILE_FIELD = 'file';

export const apiUploadRequestSchema = uploadRequestSchema.meta({ id: 'ImageUpload' });

export const apiImageSchema = z
  .object({
    id: z.uuid(),
    /** Absolute URL of the stored JPEG, fetched with the same key. */
    url: z.url(),
  })
  .meta({ id: 'Image' });
export type ApiImage = z.infer<typeof apiImageSchema>;

const WEBHOOK_URL_MAX_LENGTH = 2000;

/** `POST /api/v1/jobs`: one credit, refunded if the staging fails. */
export const apiCreateJobRequestSchema = z
  .strictObject({
    imageId: z.uuid(),
    style: z.enum(STYLES),
    roomType: z.enum(ROOM_TYPES).optional(),
    /** https (in development also http://localhost): POSTed a signed `job.completed` or `job.failed` event. */
    webhookUrl: z.url({ protocol: /^https?$/ }).max(WEBHOOK_URL_MAX_LENGTH).optional(),
  })
  .meta({ id: 'CreateJob' });

export const apiJobSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(JOB_STATUSES),
    style: z.enum(STYLES),
    roomType: z.enum(ROOM_TYPES),
    imageId: z.uuid(),
    /** Absolute URLs, fetched with the same key. */
    originalImageUrl: z.url(),
    /** Null until the job is completed. */
    stagedImageUrl: z.url().nullable(),
    /** Why it failed (its credit was refunded); null otherwise. */
    errorMessage: z.string().nullable(),
    createdAt: z.iso.datetime({ offset: true }),
    processingStartedAt: z.iso.datetime({ offset: true }).nullable(),
    processingCompletedAt: z.iso.datetime({ offset: true }).nullable(),
  })
  .meta({ id: 'Job' });
export type ApiJob = z.infer<typeof apiJobSchema>;

export const API_JOBS_PAGE_MAX = 100;
export const API_JOBS_PAGE_DEFAULT = 20;

/** An opaque position in the job list, as answered in `nextCursor`. */
export const apiCursorSchema = z.string().regex(/^[A-Za-z0-9_-]{1,200}$/, { error: 'cursor must be a nextCursor from an earlier answer' });

export const apiListJobsQuerySchema = z.strictObject({
  cursor: apiCursorSchema.optional(),
  limit: z
    .string()
    .regex(/^[1-9][0-9]{0,2}$/, { error: `limit must be 1-${API_JOBS_PAGE_MAX}` })
    .refine((v) => Number(v) <= API_JOBS_PAGE_MAX, { error: `limit must be 1-${API_JOBS_PAGE_MAX}` })
    .optional(),
});

export const apiJobListSchema = z
  .object({
    /** Newest first. */
    jobs: z.array(apiJobSchema),
    /** Pass as `cursor` for the next page; null on the last one. */
    nextCursor: apiCursorSchema.nullable(),
  })
  .meta({ id: 'JobList' });
export type ApiJobList = z.infer<typeof apiJobListSchema>;

export const apiAccountSchema = z.object({ credits: z.number().int().nonnegative() }).meta({ id: 'Account' });
export type ApiAccount = z.infer<typeof apiAccountSchema>;

/** The body of a webhook delivery. `id` is the delivery's, the same on each retry of it. */
export const webhookEventSchema = z
  .object({
    id: z.uuid(),
    type: z.enum(WEBHOOK_EVENTS),
    createdAt: z.iso.datetime({ offset: true }),
    data: z.object({ job: apiJobSchema }),
  })
  .meta({ id: 'WebhookEvent' });
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

const idParams = z.strictObject({ id: z.uuid() });

/** The `Idempotency-Key` of every call that creates something (ADR 0015's rule, per account). */
const apiIdempotencyHeaderSchema = z.object({ 'idempotency-key': idempotencyKeySchema.optional() });

/**
 * One operation of /api/v1: what the handler validates and answers, and what the OpenAPI
 * document says. `binary` answers are files (an image), not JSON.
 */
export interface ApiOperation {
  method: 'get' | 'post' | 'delete';
  /** OpenAPI form: `/api/v1/jobs/{id}`. */
  path: string;
  summary: string;
  description?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  headers?: z.ZodType;
  body?: z.ZodType;
  /** The same call also takes a multipart/form-data body holding one file in this field. */
  multipartFile?: { field: string; description: string };
  /** Status -> answer: a schema (JSON), 'binary' (a file), or null (no body). */
  responses: Record<number, { description: string; schema: z.ZodType | 'binary' | null }>;
}

/** Every operation of /api/v1; the server registers a handler for each, by name. */
export const V1_OPERATIONS = {
  uploadImage: {
    method: 'post',
    path: '/api/v1/images',
    summary: 'Upload a photo',
    description: `A JPEG or PNG of at most 10 MB, either as multipart/form-data with the file in the field \`${API_UPLOAD_FILE_FIELD}\` (curl -F ${API_UPLOAD_FILE_FIELD}=@room.jpg) or as JSON with the file in base64 as imageData and a filename of at most ${FILENAME_MAX_LENGTH} characters. Uploads no job uses are deleted after a day.`,
    headers: apiIdempotencyHeaderSchema,
    body: apiUploadRequestSchema,
    multipartFile: { field: API_UPLOAD_FILE_FIELD, description: 'The photo, a JPEG or PNG of at most 10 MB; its file name is a label only.' },
    responses: { 201: { description: 'Stored', schema: apiImageSchema } },
  },
  getImage: {
    method: 'get',
    path: '/api/v1/images/{id}',
    summary: 'Download an image (an upload or a staged result) as JPEG',
    params: idParams,
    responses: { 200: { description: 'The JPEG', schema: 'binary' } },
  },
  createJob: {
    method: 'post',
    path: '/api/v1/jobs',
    summary: 'Stage an uploaded photo (1 credit, refunded if it fails)',
    headers: apiIdempotencyHeaderSchema,
    body: apiCreateJobRequestSchema,
    responses: { 202: { description: 'Queued', schema: apiJobSchema } },
  },
  listJobs: {
    method: 'get',
    path: '/api/v1/jobs',
    summary: 'List jobs, newest first',
    query: apiListJobsQuerySchema,
    responses: { 200: { description: 'A page of jobs', schema: apiJobListSchema } },
  },
  getJob: {
    method: 'get',
    path: '/api/v1/jobs/{id}',
    summary: 'Get a job: its status, image URLs, error and times',
    params: idParams,
    responses: { 200: { description: 'The job', schema: apiJobSchema } },
  },
  deleteJob: {
    method: 'delete',
    path: '/api/v1/jobs/{id}',
    summary: 'Delete a job and its images (an unfinished one is cancelled and refunded)',
    params: idParams,
    responses: { 204: { description: 'Deleted', schema: null } },
  },
  getAccount: {
    method: 'get',
    path: '/api/v1/account',
    summary: 'The credit balance',
    responses: { 200: { description: 'The account', schema: apiAccountSchema } },
  },
} as const satisfies Record<string, ApiOperation>;

export type V1OperationId = keyof typeof V1_OPERATIONS;
