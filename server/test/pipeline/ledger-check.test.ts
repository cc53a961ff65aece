import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema.ts';
import { createWorker, type WorkerParts } from '../../src/worker/worker.ts';
import { createSignedInUser, createTestApp, databaseKinds, ledgerViolations, type TestApp } from '../helpers.ts';

/** The worker's periodic sweep checks every balance against the ledger and reports mismatches. */
describe.each(databaseKinds)('ledger check on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ kind });
  });
  afterAll(async () => {
    await t.close();
  });

  it('finds nothing while balances and ledgers agree, and logs each user whose balance was changed behind the ledger', async () => {
    const errors: Array<Record<string, unknown>> = [];
    // The worker's logger is pino's shape; only error matters here.
    const logger = { info: () => undefined, warn: () => undefined, error: (obj: Record<string, unknown>) => void errors.push(obj) } as unknown as NonNullable<
      WorkerParts['logger']
    >;
    const worker = createWorker(t.container, { concurrency: 0, logger });
    const a = await createSignedInUser(t);
    const b = await createSignedInUser(t);
    expect(await worker.checkLedger()).toBe(0);
    expect(errors).toEqual([]);

    // An edit outside CreditsService.record: the balance moves without a ledger row.
    await t.container.database.db.update(users).set({ credits: 40 }).where(eq(users.id, b.id));
    expect(await worker.checkLedger()).toBe(1);
    expect(errors).toEqual([expect.objectContaining({ event: 'credits.ledger_mismatch', userId: b.id, balance: 40, ledger: 3 })]);
    expect(await ledgerViolations(t.container.database)).toEqual([{ id: b.id, credits: 40, ledger: 3 }]);
    expect(errors.some((e) => e.userId === a.id)).toBe(false);
    await t.container.database.db.update(users).set({ credits: 3 }).where(eq(users.id, b.id));
  });
});
