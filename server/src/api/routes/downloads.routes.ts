import { downloadQuerySchema, type DownloadSizesResponse } from '@roomstager/contracts';
import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';
import { requireUser } from '../session.ts';
import { parseInput } from '../validation.ts';

/** Staged photos in the sizes the packs promise (HD for everyone, 4K with the Enterprise pack), labelled on request. */
export function downloadsRoutes(app: FastifyInstance, { downloads }: Container): void {
  app.get('/api/downloads/sizes', async (req, reply) => {
    const user = await requireUser(req);
    const answer: DownloadSizesResponse = { sizes: await downloads.sizesFor(user.id) };
    return reply.send(answer);
  });

  app.get<{ Params: { id: string } }>('/api/jobs/:id/download', async (req, reply) => {
    const user = await requireUser(req);
    const query = parseInput(downloadQuerySchema, req.query, 'query');
    const { jpeg, fileName } = await downloads.download(user.id, req.params.id, query);
    return reply
      .header('Content-Type', 'image/jpeg')
      .header('Content-Disposition', `attachment; filename="${fileName}"`)
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .send(jpeg);
  });
}
