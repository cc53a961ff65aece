import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../container.ts';
import type { ImageRow, ImagesService } from '../../domain/images/images.service.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { requireUser } from '../session.ts';

/** Image URLs are unique per stored file: cached privately for a year, never revalidated needlessly. */
const IMMUTABLE = 'private, max-age=31536000, immutable';

/** Whether the request already holds this version (If-None-Match). */
export const etagMatches = (req: FastifyRequest, etag: string) => {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  return header === '*' || header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
};

function cacheHeaders(reply: FastifyReply, etag: string, contentType: string): void {
  reply.header('Cache-Control', IMMUTABLE).header('ETag', etag).header('Content-Type', contentType).header('X-Content-Type-Options', 'nosniff');
  // Images are data, never a document: nothing inside may run or load anything.
  reply.header('Content-Security-Policy', "default-src 'none'; sandbox");
}

/**
 * Answers an image's JPEG (304 when the client has it): for the app's image URLs and the API's.
 * `download` adds `Content-Disposition: attachment` with a server-chosen name.
 */
export async function sendImage(req: FastifyRequest, reply: FastifyReply, images: ImagesService, row: ImageRow, download = false): Promise<FastifyReply> {
  const etag = `"${row.sha256}"`;
  if (etagMatches(req, etag)) {
    cacheHeaders(reply, etag, row.contentType);
    return reply.code(304).send();
  }
  const file = await images.openFile(row);
  if (!file) {
    req.log.error({ imageId: row.id }, 'image file missing from storage');
    throw new NotFoundError('Image not found');
  }
  cacheHeaders(reply, etag, row.contentType);
  if (download) {
    reply.header('Content-Disposition', `attachment; filename="${row.kind === 'staged' ? 'staged' : 'original'}-${row.id}.jpg"`);
  }
  reply.header('Content-Length', String(row.bytes));
  return reply.send(file);
}

/**
 * `GET /api/images/{id}` (the JPEG) and `/api/images/{id}/thumbnail` (the WebP card picture),
 * served to their owner only: anyone else gets the same 404 as for an id that does not exist.
 * `?download=1` adds `Content-Disposition: attachment` with a server-chosen name.
 */
export function imagesRoutes(app: FastifyInstance, { images }: Container): void {
  const owned = async (req: FastifyRequest<{ Params: { id: string } }>): Promise<ImageRow> => {
    const user = await requireUser(req);
    const row = await images.findOwned(user.id, req.params.id);
    if (!row) throw new NotFoundError('Image not found');
    return row;
  };

  app.get<{ Params: { id: string }; Querystring: { download?: string } }>('/api/images/:id', async (req, reply) => {
    return sendImage(req, reply, images, await owned(req), req.query.download === '1');
  });

  app.get<{ Params: { id: string } }>('/api/images/:id/thumbnail', async (req, reply) => {
    const row = await owned(req);
    const etag = `"${row.sha256}-thumbnail"`;
    if (etagMatches(req, etag)) {
      cacheHeaders(reply, etag, 'image/webp');
      return reply.code(304).send();
    }
    const thumbnail = await images.thumbnail(row);
    if (!thumbnail) throw new NotFoundError('Image not found');
    cacheHeaders(reply, etag, 'image/webp');
    return reply.send(thumbnail);
  });
}
