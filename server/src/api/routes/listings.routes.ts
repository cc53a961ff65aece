import {
  addListingPhotoRequestSchema,
  createListingRequestSchema,
  updateListingPhotoRequestSchema,
  updateListingRequestSchema,
  type CreatedResponse,
  type Listing,
  type ListingSummary,
  type StageListingResponse,
} from '@roomstager/contracts';
import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';
import { requireUser } from '../session.ts';
import { debitRateLimitOf, jobOptionsOf } from './jobs.routes.ts';
import { parseInput } from '../validation.ts';

type ListingParams = { Params: { id: string } };
type PhotoParams = { Params: { id: string; photoId: string } };

/** The signed-in user's listings and their photos. Another user's ids are a 404. */
export function listingsRoutes(app: FastifyInstance, { listings, config, testEngines }: Container): void {
  const debitRateLimit = debitRateLimitOf(config);
  app.post('/api/listings', async (req, reply) => {
    const user = await requireUser(req);
    const input = parseInput(createListingRequestSchema, req.body ?? {});
    const answer: CreatedResponse = await listings.create(user.id, input);
    return reply.code(201).send(answer);
  });

  app.get('/api/listings', async (req, reply) => {
    const user = await requireUser(req);
    const answer: ListingSummary[] = await listings.list(user.id);
    return reply.send(answer);
  });

  app.get<ListingParams>('/api/listings/:id', async (req, reply) => {
    const user = await requireUser(req);
    const answer: Listing = await listings.get(user.id, req.params.id);
    return reply.send(answer);
  });

  app.patch<ListingParams>('/api/listings/:id', async (req, reply) => {
    const user = await requireUser(req);
    const input = parseInput(updateListingRequestSchema, req.body ?? {});
    return reply.send(await listings.update(user.id, req.params.id, input));
  });

  app.delete<ListingParams>('/api/listings/:id', async (req, reply) => {
    const user = await requireUser(req);
    await listings.delete(user.id, req.params.id);
    return reply.code(204).send();
  });

  app.post<ListingParams>('/api/listings/:id/photos', async (req, reply) => {
    const user = await requireUser(req);
    const input = parseInput(addListingPhotoRequestSchema, req.body ?? {});
    const answer: CreatedResponse = await listings.addPhoto(user.id, req.params.id, input);
    return reply.code(201).send(answer);
  });

  app.patch<PhotoParams>('/api/listings/:id/photos/:photoId', async (req, reply) => {
    const user = await requireUser(req);
    const { roomType } = parseInput(updateListingPhotoRequestSchema, req.body ?? {});
    return reply.send(await listings.updatePhoto(user.id, req.params.id, req.params.photoId, roomType));
  });

  app.delete<PhotoParams>('/api/listings/:id/photos/:photoId', async (req, reply) => {
    const user = await requireUser(req);
    await listings.deletePhoto(user.id, req.params.id, req.params.photoId);
    return reply.code(204).send();
  });

  /** Stages every photo not yet staged in the listing's style (no Idempotency-Key needed: a replay stages nothing twice). */
  app.post<ListingParams>('/api/listings/:id/stage', debitRateLimit, async (req, reply) => {
    const user = await requireUser(req);
    const { requestedEngine } = jobOptionsOf(req, { config, testEngines });
    const answer: StageListingResponse = await listings.stage(user.id, req.params.id, { requestedEngine });
    return reply.send(answer);
  });

  /** Stages one photo again (one credit); Idempotency-Key honoured as on POST /api/jobs. */
  app.post<PhotoParams>('/api/listings/:id/photos/:photoId/stage', debitRateLimit, async (req, reply) => {
    const user = await requireUser(req);
    const answer: StageListingResponse = await listings.stagePhoto(user.id, req.params.id, req.params.photoId, jobOptionsOf(req, { config, testEngines }));
    return reply.send(answer);
  });
}
