import type { CreditTransaction, CreditTransactionType } from '@roomstager/contracts';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Executor, Tx } from '../../db/client.ts';
import { creditTransactions, users } from '../../db/schema.ts';

export interface LedgerRow {
  userId: string;
  type: CreditTransactionType;
  amount: number;
  description: string;
  jobId: string | null;
  paymentId: string | null;
}

/** A user whose balance differs from the sum of their ledger rows. */
export interface LedgerViolation {
  id: string;
  credits: number;
  ledger: number;
}

/** Every statement on the ledger (`credit_transactions`) and on the balance it backs (`users.credits`). */
export class CreditsRepository {
  constructor(private readonly db: Db) {}

  /** Adds `amount` (signed) to the balance unless that takes it below zero; the new balance, or undefined. */
  async addToBalance(tx: Tx, userId: string, amount: number): Promise<number | undefined> {
    const [updated] = await tx
      .update(users)
      .set({ credits: sql`${users.credits} + ${amount}` })
      .where(and(eq(users.id, userId), sql`${users.credits} + ${amount} >= 0`))
      .returning({ credits: users.credits });
    return updated?.credits;
  }

  async userExists(tx: Tx, userId: string): Promise<boolean> {
    const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
    return row !== undefined;
  }

  /** The balance; 0 for no such user. */
  async balance(userId: string): Promise<number> {
    const [row] = await this.db.select({ credits: users.credits }).from(users).where(eq(users.id, userId));
    return row?.credits ?? 0;
  }

  /** The balance, its row locked FOR UPDATE until `tx` ends; 0 for no such user. */
  async lockBalance(tx: Tx, userId: string): Promise<number> {
    const [row] = await tx.select({ credits: users.credits }).from(users).where(eq(users.id, userId)).for('update');
    return row?.credits ?? 0;
  }

  async insertRow(tx: Tx, row: LedgerRow): Promise<string> {
    const [inserted] = await tx.insert(creditTransactions).values(row).returning({ id: creditTransactions.id });
    if (!inserted) throw new Error('Ledger row was not written');
    return inserted.id;
  }

  /** The user's ledger, newest first. */
  async list(userId: string, executor: Executor = this.db): Promise<CreditTransaction[]> {
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

  /** The sum of the user's rows of these types. */
  async sum(userId: string, types: CreditTransactionType[], executor: Executor = this.db): Promise<number> {
    const [row] = await executor
      .select({ total: sql<string | number | null>`coalesce(sum(${creditTransactions.amount}), 0)` })
      .from(creditTransactions)
      .where(and(eq(creditTransactions.userId, userId), inArray(creditTransactions.type, types)));
    return Number(row?.total ?? 0);
  }

  async violations(limit: number): Promise<LedgerViolation[]> {
    const rows = await this.db
      .select({ id: users.id, credits: users.credits, ledger: sql<string>`coalesce(sum(${creditTransactions.amount}), 0)` })
      .from(users)
      .leftJoin(creditTransactions, eq(creditTransactions.userId, users.id))
      .groupBy(users.id, users.credits)
      .having(sql`${users.credits} <> coalesce(sum(${creditTransactions.amount}), 0)`)
      .limit(limit);
    return rows.map((r) => ({ id: r.id, credits: r.credits, ledger: Number(r.ledger) }));
  }
}
