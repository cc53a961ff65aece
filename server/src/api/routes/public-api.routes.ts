import multipart from '@fastify/multipart';
import {
  API_JOBS_PAGE_DEFAULT,
  API_UPLOAD_FILE_FIELD,
  MAX_UPLOAD_BYTES,
  apiCreateJobRequestSchema,
  apiListJobsQuerySchema,
  apiUploadRequestSchema,
  V1_OPERATIONS,
  type ApiAccount,
  type ApiErrorBody,
  type ApiImage,
  type ApiJobList,
  type UploadRequest,
  type V1OperationId,
} from '@roomstager/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Container } from '../../container.ts';
import { BadRequestError, DomainError, NotFoundError } from '../../domain/errors.ts';
import { UploadRejectedError } from '../../domain/images/errors.ts';
import { decodeBase64Image, MESSAGES } from '../../domain/images/image-files.ts';
import type { UploadedFile } from '../../domain/images/uploads.service.ts';
import { imageUrl } from '../../domain/images/images.service.ts';
import { apiImageUrl, decodeJobCursor, encodeJobCursor, toApiJob } from '../../domain/jobs/api-job.ts';
import { apiCaller, authenticateApiCall } from '../api-auth.ts';
import { httpStatus } from '../errors.ts';
import { buildOpenApiDocument } from '../openapi.ts';
import { parseInput } from '../validation.ts';
import { jobOptionsOf } from './jobs.routes.ts';
import { sendImage } from './images.routes.ts';
import { UPLOAD_BODY_LIMIT_BYTES } from './uploads.routes.ts';

export const PUBLIC_API_PREFIX = '/api/v1';

type Handler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** Fastify's form of an operation's path: `/jobs/{id}` -> `/jobs/:id`, under the prefix. */
const routePath = (path: string) => path.slice(PUBLIC_API_PREFIX.length).replace(/\{(\w+)\}/g, ':$1');

const idOf = (req: FastifyRequest) => parseInput(z.object({ id: z.uuid({ error: 'id must be a UUID' }) }), req.params, 'path').id;

/** The stable code of Fastify's own refusals (body too large, not JSON, malformed JSON). */
function fastifyCode(error: FastifyError): string {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return 'PAYLOAD_TOO_LARGE';
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return 'UNSUPPORTED_MEDIA_TYPE';
  return 'BAD_REQUEST';
}

/** A JSON upload's file: its base64 decoded (checked before decoding, as the app's upload). */
const jsonUpload = (input: UploadRequest): UploadedFile => ({ bytes: decodeBase64Image(input.imageData), filename: input.filename });

/**
 * A multipart upload's file: exactly one part, the file in `API_UPLOAD_FILE_FIELD`, read into
 * memory up to the upload limit (a larger file is refused as the JSON upload refuses it).
 */
async function multipartUpload(req: FastifyRequest): Promise<UploadedFile> {
  const onePart = `Send one part only: the photo in the form field "${API_UPLOAD_FILE_FIELD}", for example curl -F ${API_UPLOAD_FILE_FIELD}=@room.jpg`;
  const { FilesLimitError, FieldsLimitError, RequestFileTooLargeError } = req.server.multipartErrors;
  try {
    let file: UploadedFile | undefined;
    // Read to the end: a second part after the file is refused too, not ignored.
    for await (const part of req.parts({ limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 0 } })) {
      if (file || part.type !== 'file' || part.fieldname !== API_UPLOAD_FILE_FIELD) throw new BadRequestError(onePart);
      file = { bytes: await part.toBuffer(), filename: part.filename };
    }
    if (!file) throw new BadRequestError(onePart);
    return file;
  } catch (error) {
    if (error instanceof RequestFileTooLargeError) throw new UploadRejectedError('FILE_TOO_LARGE', MESSAGES.tooLarge);
    if (error instanceof FilesLimitError || error instanceof FieldsLimitError) throw new BadRequestError(onePart);
    throw error;
  }
}

const errorBody = (code: string, message: string, details?: unknown): ApiErrorBody =>
  ({ error: { code, message, ...(Array.isArray(details) ? { details } : {}) } }) as ApiErrorBody;

/** Whether a path is in the public API (the app's 404 answers there in its shape too: the web app's static files route GETs there first). */
export const isPublicApiPath = (pathname: string) => pathname === PUBLIC_API_PREFIX || pathname.startsWith(`${PUBLIC_API_PREFIX}/`);

/** The public API's answer for a path it does not have. */
export const sendPublicApiNotFound = (reply: FastifyReply) => reply.code(404).send(errorBody('NOT_FOUND', 'No such endpoint. See /api/v1/openapi.json.'));

/**
 * The public API of the Enterprise pack: every operation of `V1_OPERATIONS` (contracts), each
 * authenticated by its Bearer key only (no cookies, so the app's same-origin rule does not apply:
 * a browser cannot send the key cross-site without a CORS preflight, which nothing answers),
 * counted against the key's rate limit, and answering errors as `{error: {code, message}}`. The
 * OpenAPI document at `/api/v1/openapi.json` is generated from the same operations.
 */
export async function publicApiRoutes(app: FastifyInstance, container: Container): Promise<void> {
  const { config, apiKeys, rateLimits, uploads, images, jobs, credits, webhooks } = container;
  const origin = config.publicOrigin;
  const openApi = JSON.stringify(buildOpenApiDocument(origin));

  const handlers: Record<V1OperationId, Handler> = {
    async uploadImage(req, reply) {
      const { userId } = apiCaller(req);
      const file = req.isMultipart() ? await multipartUpload(req) : jsonUpload(parseInput(apiUploadRequestSchema, req.body ?? {}));
      const id = await uploads.store(userId, file, jobOptionsOf(req, container).idempotencyKey ?? null);
      const answer: ApiImage = { id, url: apiImageUrl(origin, id) };
      return reply.code(201).send(answer);
    },
    async getImage(req, reply) {
      const row = await images.findOwned(apiCaller(req).userId, idOf(req));
      if (!row) throw new NotFoundError('Image not found');
      return sendImage(req, reply, images, row);
    },
    async createJob(req, reply) {
      const caller = apiCaller(req);
      const input = parseInput(apiCreateJobRequestSchema, req.body ?? {});
      const webhookUrl = input.webhookUrl === undefined ? null : webhooks.checkUrl(input.webhookUrl);
      const row = await jobs.createRow(
        caller.userId,
        { originalImageUrl: imageUrl(input.imageId), style: input.style, roomType: input.roomType, userLabel: null },
        { ...jobOptionsOf(req, container), apiKey: caller.key, webhookUrl },
      );
      return reply.code(202).send(toApiJob(row, origin));
    },
    async listJobs(req, reply) {
      const query = parseInput(apiListJobsQuerySchema, req.query, 'query');
      const cursor = query.cursor === undefined ? null : decodeJobCursor(query.cursor);
      const page = await jobs.listAfter(apiCaller(req).userId, cursor, query.limit === undefined ? API_JOBS_PAGE_DEFAULT : Number(query.limit));
      const answer: ApiJobList = { jobs: page.jobs.map((row) => toApiJob(row, origin)), nextCursor: page.next && encodeJobCursor(page.next) };
      return reply.send(answer);
    },
    async getJob(req, reply) {
      return reply.send(toApiJob(await jobs.view(apiCaller(req).userId, idOf(req)), origin));
    },
    async deleteJob(req, reply) {
      await jobs.delete(apiCaller(req).userId, idOf(req));
      return reply.code(204).send();
    },
    async getAccount(req, reply) {
      const answer: ApiAccount = { credits: await credits.balance(apiCaller(req).userId) };
      return reply.send(answer);
    },
  };

  // Public: a developer reads it before having a key.
  app.get(`${PUBLIC_API_PREFIX}/openapi.json`, async (_req, reply) => reply.type('application/json').send(openApi));

  await app.register(
    async (scope) => {
      scope.decorateRequest('apiCaller', null);
      // Multipart is parsed by the upload handler only (a form sent to another call is a 400 there).
      await scope.register(multipart);
      // Before the body is read: a call without a valid key never has its upload parsed.
      scope.addHook('onRequest', async (req, reply) => {
        await authenticateApiCall(req, reply, { apiKeys, rateLimits, limit: config.API_RATE_LIMIT });
      });
      scope.setErrorHandler((error, req, reply) => {
        if (error instanceof DomainError) return reply.code(httpStatus(error.code)).send(errorBody(error.code, error.message, error.details));
        const fastifyError = error as FastifyError;
        const status = typeof fastifyError.statusCode === 'number' ? fastifyError.statusCode : 500;
        if (status >= 500) {
          req.log.error({ err: error }, 'API request failed');
          return reply.code(500).send(errorBody('INTERNAL', 'Internal server error'));
        }
        return reply.code(status).send(errorBody(fastifyCode(fastifyError), fastifyError.message));
      });
      scope.setNotFoundHandler((_req, reply) => sendPublicApiNotFound(reply));
      for (const [id, operation] of Object.entries(V1_OPERATIONS) as Array<[V1OperationId, (typeof V1_OPERATIONS)[V1OperationId]]>) {
        scope.route({
          method: operation.method.toUpperCase() as 'GET' | 'POST' | 'DELETE',
          url: routePath(operation.path),
          handler: handlers[id],
          config: { crossSiteExempt: true },
          ...(id === 'uploadImage' ? { bodyLimit: UPLOAD_BODY_LIMIT_BYTES } : {}),
        });
      }
    },
    { prefix: PUBLIC_API_PREFIX },
  );
}
