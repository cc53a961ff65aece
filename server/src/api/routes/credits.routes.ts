import type { CreditTransactionsResponse } from '@roomstager/contracts';
import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';
import { requireUser } from '../session.ts';

/** The signed-in user's credit ledger. */
export function creditsRoutes(app: FastifyInstance, { credits }: Container): void {
  app.get('/api/credits/transactions', async (req, reply) => {
    const user = await requireUser(req);
    const rows: CreditTransactionsResponse = await credits.listTransactions(user.id);
    return reply.send(rows);
  });
}
