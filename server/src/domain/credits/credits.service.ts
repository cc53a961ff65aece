import type { CreditPack, CreditTransaction, CreditTransactionType, Style } from '@roomstager/contracts';
import type { Db, Executor, Tx } from '../../db/client.ts';
import { CreditsRepository, type LedgerViolation } from './credits.repository.ts';
import { InsufficientCreditsError } from './errors.ts';
import { ledgerDescription } from './ledger.ts';

export type { LedgerViolation } from './credits.repository.ts';

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
 * deadlocks on PGlite and escapes the transaction on node-postgres). Each kind of movement has
 * its method, which writes its type and its description (ledger.ts).
 */
export class CreditsService {
  private readonly repository: CreditsRepository;

  constructor(db: Db) {
    this.repository = new CreditsRepository(db);
  }

  /**
   * Users whose balance differs from the sum of their ledger rows (there must be none). The
   * worker's sweep runs it and logs any as an error; tests assert it stays empty.
   */
  violations(limit = 100): Promise<LedgerViolation[]> {
    return this.repository.violations(limit);
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
    const balance = await this.repository.addToBalance(tx, entry.userId, entry.amount);
    if (balance === undefined) {
      if (!(await this.repository.userExists(tx, entry.userId))) throw new Error(`No user ${entry.userId} for a ledger entry`);
      throw new InsufficientCreditsError();
    }
    const transactionId = await this.repository.insertRow(tx, {
      userId: entry.userId,
      type: entry.type,
      amount: entry.amount,
      description: entry.description,
      jobId: entry.jobId ?? null,
      paymentId: entry.paymentId ?? null,
    });
    return { balance, transactionId };
  }

  /** The free trial of a new account. */
  grantFreeTrial(tx: Tx, userId: string, amount: number) {
    if (amount <= 0) throw new Error('A grant must be positive');
    return this.record(tx, { userId, type: 'grant', amount, description: ledgerDescription.freeTrial() });
  }

  /** One credit for a job's run (its first, or a retry of a failed one); a job created through the API names its key. */
  chargeStaging(tx: Tx, job: { userId: string; jobId: string; style: Style; retry: boolean; apiKey?: { name: string; prefix: string } | null }) {
    const description = job.retry
      ? ledgerDescription.stagingRetry(job.style)
      : job.apiKey
        ? ledgerDescription.stagingByApiKey(job.style, job.apiKey)
        : ledgerDescription.staging(job.style);
    return this.record(tx, { userId: job.userId, type: 'usage', amount: -1, description, jobId: job.jobId });
  }

  /**
   * Locks the balance until `tx` ends and checks that it pays for `count` stagings (one credit
   * each, charged next with chargeStaging); when short, nothing is debited and the refusal says
   * how many credits are missing.
   */
  async lockForStagings(tx: Tx, userId: string, count: number): Promise<void> {
    const balance = await this.repository.lockBalance(tx, userId);
    if (balance >= count) return;
    const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`;
    throw new InsufficientCreditsError(
      `Insufficient credits: staging ${count === 1 ? '1 photo' : `${count} photos`} takes ${credits(count)} and you have ${balance}. ${credits(count - balance)} missing.`,
      { needed: count, balance },
    );
  }

  /** One more variation of a completed staging (docs/decisions/0026-more-variations-for-a-credit.md), charged to the request's job. */
  chargeVariation(tx: Tx, request: { userId: string; jobId: string; style: Style }) {
    return this.record(tx, { userId: request.userId, type: 'usage', amount: -1, description: ledgerDescription.variation(request.style), jobId: request.jobId });
  }

  /** The run's credit back: the job (a staging, or a request for one more variation) failed, or was deleted before it finished. */
  refundStaging(tx: Tx, job: { userId: string; jobId: string; reason: 'failed' | 'cancelled'; variation?: boolean }) {
    const texts = job.variation
      ? { failed: ledgerDescription.variationFailed, cancelled: ledgerDescription.variationCancelled }
      : { failed: ledgerDescription.stagingFailed, cancelled: ledgerDescription.stagingCancelled };
    const description = texts[job.reason]();
    return this.record(tx, { userId: job.userId, type: 'refund', amount: 1, description, jobId: job.jobId });
  }

  /** A pack's credits, once its capture completed. */
  creditPurchase(tx: Tx, purchase: { userId: string; paymentId: string; pack: CreditPack; credits: number }) {
    return this.record(tx, {
      userId: purchase.userId,
      type: 'purchase',
      amount: purchase.credits,
      description: ledgerDescription.purchase(purchase.pack),
      paymentId: purchase.paymentId,
    });
  }

  /**
   * Takes back up to `due` credits of a refunded purchase, as far as the balance allows (never
   * below zero), under a lock on the balance; answers how many were removed.
   */
  async removeRefundedPurchase(tx: Tx, refund: { userId: string; paymentId: string; pack: CreditPack; due: number; full: boolean }): Promise<number> {
    const balance = await this.repository.lockBalance(tx, refund.userId);
    const removed = Math.min(refund.due, balance);
    if (removed > 0) {
      await this.record(tx, {
        userId: refund.userId,
        type: 'purchase_refund',
        amount: -removed,
        description: ledgerDescription.purchaseRefund(refund.pack, removed, refund.full),
        paymentId: refund.paymentId,
      });
    }
    return removed;
  }

  /** The user's balance now; 0 for no such user. */
  balance(userId: string): Promise<number> {
    return this.repository.balance(userId);
  }

  /** The user's ledger, newest first. */
  listTransactions(userId: string, executor?: Executor): Promise<CreditTransaction[]> {
    return this.repository.list(userId, executor);
  }

  /** Credits the user bought, net of those refunds took back. */
  totalPurchased(userId: string, executor?: Executor): Promise<number> {
    return this.repository.sum(userId, ['purchase', 'purchase_refund'], executor);
  }
}
