import { createApiKeyRequestSchema, type ApiKeysResponse, type CreatedApiKey, type WebhookSecretResponse } from '@roomstager/contracts';
import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';
import { requireUser } from '../session.ts';
import { parseInput } from '../validation.ts';

/** The signed-in user's API keys and webhook secret (the /api-keys page); the keys themselves call /api/v1. */
export function apiKeysRoutes(app: FastifyInstance, { apiKeys, webhooks }: Container): void {
  app.get('/api/api-keys', async (req, reply) => {
    const user = await requireUser(req);
    const answer: ApiKeysResponse = await apiKeys.overview(user.id);
    return reply.send(answer);
  });

  app.post('/api/api-keys', async (req, reply) => {
    const user = await requireUser(req);
    const { name } = parseInput(createApiKeyRequestSchema, req.body ?? {});
    const answer: CreatedApiKey = await apiKeys.create(user.id, name);
    return reply.code(201).send(answer);
  });

  app.delete<{ Params: { id: string } }>('/api/api-keys/:id', async (req, reply) => {
    const user = await requireUser(req);
    await apiKeys.revoke(user.id, req.params.id);
    return reply.code(204).send();
  });

  app.get('/api/api-keys/webhook-secret', async (req, reply) => {
    const user = await requireUser(req);
    await apiKeys.requireEnterprise(user.id);
    const answer: WebhookSecretResponse = { secret: await webhooks.secret(user.id) };
    return reply.send(answer);
  });
}
