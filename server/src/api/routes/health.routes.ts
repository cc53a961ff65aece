import type { HealthResponse } from '@roomstager/contracts';
import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';

export function healthRoutes(app: FastifyInstance, { database }: Container): void {
  app.get('/api/health', async (_req, reply) => {
    const up = await database.ping();
    const body: HealthResponse = { status: up ? 'ok' : 'degraded', database: up ? 'up' : 'down' };
    return reply.code(up ? 200 : 503).send(body);
  });
}
