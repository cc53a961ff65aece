import {
  createJobRequestSchema,
  IDEMPOTENCY_KEY_HEADER,
  idempotencyKeySchema,
  regenerateJobRequestSchema,
  updateJobRequestSchema,
  type Job,
  type JobPage,
} from '@roomstager/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Container } from '../../container.ts';
import type { JobOptions } from '../../domain/jobs/jobs.service.ts';
import { BadRequestError, RateLimitedError } from '../../domain/errors.ts';
import { requireUser } from '../session.ts';
import { parseInput } from '../validation.ts';

/** Header a browser test sends to have its jobs run by a test engine (development and test only). */
export const TEST_ENGINE_HEADER = 'x-test-staging-engine';

const PAGE = /^[1-9][0-9]{0,5}$/;

type IdParams = { Params: { id: string } };

/**
 * What a call that debits a credit says beside its body: its Idempotency-Key
 * (docs/decisions/0015-idempotent-job-submission.md), and outside production a test engine asked
 * for by header (production never looks). The API's job creation reads them the same way.
 */
export function jobOptionsOf(req: FastifyRequest, { config, testEngines }: Pick<Container, 'config' | 'testEngines'>): JobOptions {
  const key = req.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
  const idempotencyKey = key === undefined ? null : parseInput(idempotencyKeySchema, key, `${IDEMPOTENCY_KEY_HEADER} header`);
  const name = req.headers[TEST_ENGINE_HEADER];
  if (config.production || typeof name !== 'string' || !testEngines.has(name)) return { idempotencyKey };
  return { idempotencyKey, requestedEngine: name };
}

/**
 * The limit of the calls that debit a credit: each of them per signed-in user and minute
 * (JOB_RATE_LIMIT), over the shared rate-limit store.
 */
export function debitRateLimitOf(config: Container['config']) {
  return {
    config: {
      rateLimit: {
        max: config.JOB_RATE_LIMIT,
        timeWindow: 60_000,
        // Anonymous requests are counted by address, then refused by requireUser.
        keyGenerator: async (req: FastifyRequest) => `jobs:${(await req.resolveUser())?.id ?? req.ip}`,
        // Thrown by the plugin; a RateLimitedError reaches the one error handler as {message, error}.
        errorResponseBuilder: (_req: FastifyRequest, context: { ttl: number }) =>
          new RateLimitedError(`Too many stagings started. Please wait ${Math.ceil(context.ttl / 1000)} seconds and try again.`),
      },
    },
  };
}

/** The signed-in user's jobs. Another user's id is a 404. */
export function jobsRoutes(app: FastifyInstance, { jobs, config, testEngines }: Container): void {
  const jobOptions = (req: FastifyRequest) => jobOptionsOf(req, { config, testEngines });

  const debitRateLimit = debitRateLimitOf(config);

  app.post('/api/jobs', debitRateLimit, async (req, reply) => {
    const user = await requireUser(req);
    const input = parseInput(createJobRequestSchema, req.body ?? {});
    const job: Job = await jobs.create(user.id, input, jobOptions(req));
    return reply.code(201).send(job);
  });

  app.get<{ Querystring: { page?: string } }>('/api/jobs', async (req, reply) => {
    const user = await requireUser(req);
    const { page } = req.query;
    if (page === undefined) return reply.send(await jobs.list(user.id));
    if (typeof page !== 'string' || !PAGE.test(page)) throw new BadRequestError('page must be a positive integer');
    const answer: JobPage = await jobs.page(user.id, Number(page));
    return reply.send(answer);
  });

  app.get<IdParams>('/api/jobs/:id', async (req, reply) => {
    const user = await requireUser(req);
    return reply.send(await jobs.get(user.id, req.params.id));
  });

  app.patch<IdParams>('/api/jobs/:id', async (req, reply) => {
    const user = await requireUser(req);
    const { userLabel } = parseInput(updateJobRequestSchema, req.body ?? {});
    return reply.send(await jobs.updateLabel(user.id, req.params.id, userLabel));
  });

  app.delete<IdParams>('/api/jobs/:id', async (req, reply) => {
    const user = await requireUser(req);
    await jobs.delete(user.id, req.params.id);
    return reply.code(204).send();
  });

  app.post<IdParams>('/api/jobs/:id/regenerate', debitRateLimit, async (req, reply) => {
    const user = await requireUser(req);
    const input = parseInput(regenerateJobRequestSchema, req.body ?? {});
    return reply.code(201).send(await jobs.regenerate(user.id, req.params.id, input, jobOptions(req)));
  });

  /**
   * One more variation of a completed staging by an engine paid per image, one credit
   * (docs/decisions/0026-more-variations-for-a-credit.md); no body. Answers the staging, the request counted in `moreVariations.pending`.
   */
  app.post<IdParams>('/api/jobs/:id/variations', debitRateLimit, async (req, reply) => {
    const user = await requireUser(req);
    const job: Job = await jobs.requestVariation(user.id, req.params.id, jobOptions(req));
    return reply.code(202).send(job);
  });

  /** The variation becomes the job's staged image everywhere; 409 while the job is unfinished. */
  app.post<{ Params: { id: string; variationId: string } }>('/api/jobs/:id/variations/:variationId/choose', async (req, reply) => {
    const user = await requireUser(req);
    const job: Job = await jobs.chooseVariation(user.id, req.params.id, req.params.variationId);
    return reply.send(job);
  });

  app.post<IdParams>('/api/jobs/:id/retry', debitRateLimit, async (req, reply) => {
    const user = await requireUser(req);
    return reply.send(await jobs.retry(user.id, req.params.id, jobOptions(req)));
  });
}
