import { MAX_UPLOAD_BYTES, uploadRequestSchema, type UploadResponse } from '@roomstager/contracts';
import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';
import { requireUser } from '../session.ts';
import { parseInput } from '../validation.ts';

/**
 * The upload route's body limit: a 10 MB file in base64 (4 * ceil(10485760 / 3) characters), a
 * tolerated data-URL prefix, and the JSON envelope with a file name of up to 255 characters,
 * even fully \\u-escaped. Every other route keeps the small global limit.
 */
export const UPLOAD_BODY_LIMIT_BYTES = 4 * Math.ceil(MAX_UPLOAD_BYTES / 3) + 4096;

export function uploadsRoutes(app: FastifyInstance, { uploads, config }: Container): void {
  app.post(
    '/api/upload',
    {
      bodyLimit: UPLOAD_BODY_LIMIT_BYTES,
      config: {
        bodyTooLargeMessage: 'File size must be less than 10MB.',
        rateLimit: {
          max: config.UPLOAD_RATE_LIMIT,
          timeWindow: 60_000,
          // Per signed-in user (anonymous requests are refused below before their body is read).
          keyGenerator: async (req) => `upload:${(await req.resolveUser())?.id ?? req.ip}`,
          errorResponseBuilder: (_req, context) => ({
            statusCode: 429,
            message: `Too many uploads. Please wait ${Math.ceil(context.ttl / 1000)} seconds and try again.`,
            error: 'RATE_LIMITED',
          }),
        },
      },
      // No session, no body: refused before 14 MB of JSON is read and parsed.
      preParsing: async (req) => {
        await requireUser(req);
      },
    },
    async (req, reply) => {
      const user = await requireUser(req);
      const input = parseInput(uploadRequestSchema, req.body ?? {});
      const answer: UploadResponse = await uploads.upload(user.id, input);
      return reply.code(201).send(answer);
    },
  );
}
