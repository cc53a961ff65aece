import { updateProfileRequestSchema, type UpdateProfileResponse, type UserStats } from '@roomstager/contracts';
import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';
import { requireUser } from '../session.ts';
import { parseInput } from '../validation.ts';

/** The signed-in user's stats and profile. */
export function usersRoutes(app: FastifyInstance, { users }: Container): void {
  app.get('/api/users/stats', async (req, reply) => {
    const user = await requireUser(req);
    const stats: UserStats = await users.stats(user.id);
    return reply.send(stats);
  });

  app.patch('/api/users/profile', async (req, reply) => {
    const user = await requireUser(req);
    const change = parseInput(updateProfileRequestSchema, req.body ?? {});
    const answer: UpdateProfileResponse = { user: await users.updateProfile(user.id, change) };
    return reply.send(answer);
  });
}
