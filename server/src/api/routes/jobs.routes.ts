import {
  createJobRequestSchema,
  regenerateJobRequestSchema,
  updateJobRequestSchema,
  type Job,
  type JobPage,
} from '@roomstager/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Container } from '../../container.ts';
import type { JobOptions } from '../../services/jobs.service.ts';
import { BadRequestError } from '../errors.ts';
import { requireUser } from '../session.ts';
import { parseInput } from '../validation.ts';

/** Header a browser test sends to have its jobs run by a test engine (development and test only). */
export const TEST_ENGINE_HEADER = 'x-test-staging-engine';

const PAGE = /^[1-9][0-9]{0,5}$/;


type IdParams = { Params: { id: string } };

/** The signed-in user's jobs (spec section 7 and BEYOND.md). Another user's id is a 404. */
export function jobsRoutes(app: FastifyInstance, { jobs, config, testEngines }: Container): void {
  /** Outside production a job may ask for a test engine by header; production never looks. */
  const jobOptions = (req: FastifyRequest): JobOptions => {
    if (config.production) return {};
    const name = req.headers[TEST_ENGINE_HEADER];
    if (typeof name !== 'string' || !testEngines.has(name)) return {};
    return { requestedEngine: name };
  };

  app.post('/api/jobs', async (req, reply) => {
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

  app.post<IdParams>('/api/jobs/:id/regenerate', async (req, reply) => {
    const user = await requireUser(req);
    const input = parseInput(regenerateJobRequestSchema, req.body ?? {});
    return reply.code(201).send(await jobs.regenerate(user.id, req.params.id, input, jobOptions(req)));
  });

  app.post<IdParams>('/api/jobs/:id/retry', async (req, reply) => {
    const user = await requireUser(req);
    return reply.send(await jobs.retry(user.id, req.params.id, jobOptions(req)));
  });
}
