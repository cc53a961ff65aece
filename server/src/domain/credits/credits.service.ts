import type { CreditTransaction, CreditTransactionType } from '@roomstager/contracts';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, Executor, Tx } from '../../db/client.ts';
import { creditTransactions, users } from '../../db/schema.ts';
import { InsufficientCreditsError } from './errors.ts';

export interface LedgerEntry {
  userId: string;
  type: CreditTransactionType;
  /** Signed; never zero. */
  amount: number;
  description: string;
  jobId?: string | null;
  paymentId?: string | null;
}

/**
 * The credit ledger: the only code that changes users.credits, and it always writes the
 * matching ledger row in the same transaction, so users.credits = sum(amount) holds for every
 * user. Callers open the transaction and pass `tx` (never the outer db inside it: that
 * deadlocks on PGlite and escapes the transaction on node-postgres).
 */
export interface LedgerViolation {
  id: string;
  credits: number;
  ledger: number;
}

export class CreditsService {
  constructor(private readonly db: Db) {}

  /**
   * Users whose balance differs from the sum of their ledger rows (CR-04: there must be none).
   * The worker's sweep runs it and logs any as an error; tests assert it stays empty.
   */
  async violations(limit = 100): Promise<LedgerViolation[]> {
    const rows = await this.db
      .select({ id: users.id, credits: users.credits, ledger: sql<string>`coalesce(sum(${creditTransactions.amount}), 0)` })
      .from(users)
      .leftJoin(creditTransactions, eq(creditTransactions.userId, users.id))
      .groupBy(users.id, users.credits)
      .having(sql`${users.credits} <> coalesce(sum(${creditTransactions.amount}), 0)`)
      .limit(limit);
    return rows.map((r) => ({ id: r.id, credits: r.credits, ledger: Number(r.ledger) }));
  }

  /**
   * Moves `amount` credits for one user inside the caller's transaction: a conditional update
   * (the balance never goes below zero, even under concurrent debits) plus the ledger row.
   * Returns the new balance; throws InsufficientCreditsError when a debit would overdraw.
   */
  async record(tx: Tx, entry: LedgerEntry): Promise<{ balance: number; transactionId: string }> {
    if (!Number.isInteger(entry.amount) || entry.amount === 0) {
      throw new Error(`A ledger entry needs a non-zero integer amount, got ${entry.amount}`);
    }
    const [updated] = await tx
      .update(users)
      .set({ credits: sql`${users.credits} + ${entry.amount}` })
      .where(and(eq(users.id, entry.userId), sql`${users.credits} + ${entry.amount} >= 0`))
      .returning({ credits: users.credits });
    if (!updated) {
      const [exists] = await tx.select({ id: users.id }).from(users).where(eq(users.id, entry.userId));
      if (!exists) throw new Error(`No user ${entry.userId} for a ledger entry`);
      throw new InsufficientCreditsError();
    }
    const [row] = await tx
      .insert(creditTransactions)
      .values({
        userId: entry.userId,
        type: entry.type,
        amount: entry.amount,
        description: entry.description,
        jobId: entry.jobId ?? null,
        paymentId: entry.paymentId ?? null,
      })
      .returning({ id: creditTransactions.id });
    if (!row) throw new Error('Ledger row was not written');
    return { balance: updated.credits, transactionId: row.id };
  }

  /** Free credits given by the product (the free trial), inside the caller's transaction. */
  grant(tx: Tx, userId: string, amount: number, description: string) {
    if (amount <= 0) throw new Error('A grant must be positive');
    return this.record(tx, { userId, type: 'grant', amount, description });
  }

  /** The user's ledger, newest first. */
  async listTransactions(userId: string, executor: Executor = this.db): Promise<CreditTransaction[]> {
    const rows = await executor
      .select({
        id: creditTransactions.id,
        type: creditTransactions.type,
        description: creditTransactions.description,
        amount: creditTransactions.amount,
        createdAt: creditTransactions.createdAt,
      })
      .from(creditTransactions)
      .where(eq(creditTransactions.userId, userId))
      .orderBy(desc(creditTransactions.createdAt), desc(creditTransactions.id));
    return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
  }

  /** Credits the user bought (sum of purchase rows). */
  async totalPurchased(userId: string, executor: Executor = this.db): Promise<number> {
    const [row] = await executor
      .select({ total: sql<string | number | null>`coalesce(sum(${creditTransactions.amount}), 0)` })
      .from(creditTransactions)
      .where(and(eq(creditTransactions.userId, userId), eq(creditTransactions.type, 'purchase')));
    return Number(row?.total ?? 0);
  }
}
