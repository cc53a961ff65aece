import {
  addListingPhotoRequestSchema,
  createListingRequestSchema,
  updateListingPhotoRequestSchema,
  updateListingRequestSchema,
  type CreatedResponse,
  type Listing,
  type ListingSummary,
} from '@roomstager/contracts';
import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';
import { requireUser } from '../session.ts';
import { parseInput } from '../validation.ts';

type ListingParams = { Params: { id: string } };
type PhotoParams = { Params: { id: string; photoId: string } };

/** The signed-in user's listings and their photos. Another user's ids are a 404. */
export function listingsRoutes(app: FastifyInstance, { listings }: Container): void {
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
}
