import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { DOWNLOAD_LONG_SIDE, originalFileName, sharePath, shareTokenSchema, stagedFileName, type ShareResponse } from '@roomstager/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import QRCode from 'qrcode';
import type { Container } from '../../container.ts';
import { fittedSize } from '../../domain/downloads/rendition.ts';
import { RateLimitedError } from '../../domain/errors.ts';
import type { SharedStaging } from '../../domain/shares/shares.service.ts';
import { requireUser } from '../session.ts';
import { renderSharePage, SHARE_PAGE_ASSETS, type SharePageStaging } from '../share-page/page.ts';
import { parseInput } from '../validation.ts';
import { etagMatches } from './images.routes.ts';

/** Requests to public share pages and their pictures per client address and minute: a page view is about five. */
const SHARE_RATE_LIMIT = 300;

/** Kept out of search engines: the page, its pictures and its QR code. */
const NO_INDEX = 'noindex, nofollow, noarchive';

/** A share page's staged photo is the HD one (4K stays with the Enterprise pack); the original is as uploaded. */
const SHARED_STAGED_SIZE = 'hd';

/** A QR code big enough to print sharp on a flyer (about 10 cm at 300 dpi). */
const QR_PNG_WIDTH = 1200;

type TokenParams = { Params: { token: string } };

interface Picture {
  etag: string;
  contentType: 'image/jpeg' | 'image/png';
  fileName: string;
  body: () => Promise<Buffer | Readable | null>;
}

/**
 * Share links: the owner's calls under /api (session and same-origin rules as everywhere), and the
 * public page under /s/{token} with its pictures and QR code. A malformed, unknown or revoked
 * token, or one whose job was deleted, answers the same 404 as any unknown path.
 */
export function sharesRoutes(app: FastifyInstance, { shares, images, downloads, config }: Container): void {
  app.post<{ Params: { id: string } }>('/api/jobs/:id/share', async (req, reply) => {
    const user = await requireUser(req);
    const answer: ShareResponse = await shares.createForJob(user.id, req.params.id);
    return reply.code(201).send(answer);
  });

  app.get<{ Params: { id: string } }>('/api/jobs/:id/share', async (req, reply) => {
    const user = await requireUser(req);
    return reply.send(await shares.stateForJob(user.id, req.params.id));
  });

  app.delete<{ Params: { id: string } }>('/api/jobs/:id/share', async (req, reply) => {
    const user = await requireUser(req);
    await shares.revokeForJob(user.id, req.params.id);
    return reply.code(204).send();
  });

  app.delete<TokenParams>('/api/shares/:token', async (req, reply) => {
    const user = await requireUser(req);
    const token = parseInput(shareTokenSchema, req.params.token, 'share token');
    await shares.revoke(user.id, token);
    return reply.code(204).send();
  });

  const publicRoute = {
    config: {
      rateLimit: {
        max: SHARE_RATE_LIMIT,
        timeWindow: 60_000,
        keyGenerator: (req: FastifyRequest) => `shares:${req.ip}`,
        errorResponseBuilder: (_req: FastifyRequest, context: { ttl: number }) =>
          new RateLimitedError(`Too many requests. Please wait ${Math.ceil(context.ttl / 1000)} seconds and try again.`),
      },
    },
  };

  const publicHeaders = (reply: FastifyReply) =>
    // The page's address is the secret: never sent on to another page or site.
    reply.header('X-Robots-Tag', NO_INDEX).header('Referrer-Policy', 'no-referrer');

  /** A public route of one share; a token that opens nothing is the app's 404. */
  const sharedRoute = (path: string, handler: (staging: SharedStaging, token: string, req: FastifyRequest, reply: FastifyReply) => Promise<unknown>) =>
    app.get<TokenParams>(path, publicRoute, async (req, reply) => {
      const page = await shares.resolve(req.params.token);
      if (!page) {
        reply.callNotFound();
        return reply;
      }
      return handler(page.stagings[0], page.token, req, reply);
    });

  /** A picture of a share: revalidated on every view (a revoked link stops at once), 304 when unchanged. */
  const sendPicture = async (req: FastifyRequest, reply: FastifyReply, picture: Picture) => {
    publicHeaders(reply).header('Cache-Control', 'no-cache').header('ETag', picture.etag).header('Content-Security-Policy', "default-src 'none'; sandbox");
    if (etagMatches(req, picture.etag)) return reply.code(304).send();
    const body = await picture.body();
    if (!body) {
      reply.callNotFound();
      return reply;
    }
    return reply.type(picture.contentType).header('Content-Disposition', `inline; filename="${picture.fileName}"`).send(body);
  };

  sharedRoute('/s/:token', async (staging, token, _req, reply) => {
    const base = sharePath(token);
    const view: SharePageStaging = {
      style: staging.style,
      roomType: staging.roomType,
      original: { url: `${base}/original.jpg`, width: staging.original.width, height: staging.original.height },
      staged: { url: `${base}/staged.jpg`, ...fittedSize(staging.staged.width, staging.staged.height, DOWNLOAD_LONG_SIDE[SHARED_STAGED_SIZE]) },
    };
    return publicHeaders(reply)
      .header('Cache-Control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(renderSharePage({ publicOrigin: config.publicOrigin, token, stagings: [view] }));
  });

  sharedRoute('/s/:token/original.jpg', (staging, _token, req, reply) =>
    sendPicture(req, reply, {
      etag: `"${staging.original.sha256}"`,
      contentType: 'image/jpeg',
      fileName: originalFileName(),
      body: () => images.openFile(staging.original),
    }),
  );

  sharedRoute('/s/:token/staged.jpg', (staging, _token, req, reply) =>
    sendPicture(req, reply, {
      etag: `"${staging.staged.sha256}-${SHARED_STAGED_SIZE}"`,
      contentType: 'image/jpeg',
      fileName: stagedFileName(staging.style),
      body: () => downloads.rendition(staging.staged, SHARED_STAGED_SIZE, false),
    }),
  );

  sharedRoute('/s/:token/qr.png', (_staging, token, req, reply) => {
    const url = `${config.publicOrigin}${sharePath(token)}`;
    return sendPicture(req, reply, {
      etag: `"qr-${createHash('sha256').update(url).digest('hex').slice(0, 16)}"`,
      contentType: 'image/png',
      fileName: 'roomstager-qr-code.png',
      body: () => QRCode.toBuffer(url, { type: 'png', width: QR_PNG_WIDTH, margin: 4, errorCorrectionLevel: 'M' }),
    });
  });

  for (const file of Object.values(SHARE_PAGE_ASSETS)) {
    app.get(file.path, (_req, reply) => reply.header('Cache-Control', 'public, max-age=31536000, immutable').type(file.contentType).send(file.body));
  }
}
