import { eq, lt, sql } from 'drizzle-orm';
import type { Db, Executor, Tx } from '../../db/client.ts';
import { sessions, signInAttempts } from '../../db/schema.ts';

export type SignInAttemptRow = typeof signInAttempts.$inferSelect;

/** The authorization request of a sign-in attempt, or only the path to land on after it. */
export type NewSignInAttempt = Pick<typeof signInAttempts.$inferInsert, 'id' | 'returnTo' | 'state' | 'nonce' | 'codeVerifier' | 'expiresAt'>;

/** A session's user and times by the session id: every API request runs it. */
function prepareSessionQuery(db: Db) {
  return db
    .select({ userId: sessions.userId, expiresAt: sessions.expiresAt, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .where(eq(sessions.id, sql.placeholder('id')))
    .prepare('resolve_session');
}

/** Every statement on `sign_in_attempts` and `sessions`; ids are the hashes of the cookies' tokens. */
export class AuthRepository {
  /** Built once, planned once per connection. */
  private readonly sessionQuery: ReturnType<typeof prepareSessionQuery>;

  constructor(private readonly db: Db) {
    this.sessionQuery = prepareSessionQuery(db);
  }

  // ---- sign-in attempts ------------------------------------------------------------------------

  async insertAttempt(tx: Tx, attempt: NewSignInAttempt): Promise<void> {
    await tx.insert(signInAttempts).values(attempt);
  }

  /** Deletes the attempt and answers it (consumed: single use), or undefined for none. */
  async takeAttempt(id: string, executor: Executor = this.db): Promise<SignInAttemptRow | undefined> {
    const [row] = await executor.delete(signInAttempts).where(eq(signInAttempts.id, id)).returning();
    return row;
  }

  async deleteAttemptsExpiredBefore(tx: Tx, now: Date): Promise<void> {
    await tx.delete(signInAttempts).where(lt(signInAttempts.expiresAt, now));
  }

  // ---- sessions --------------------------------------------------------------------------------

  async insertSession(tx: Tx, session: { id: string; userId: string; expiresAt: Date; lastSeenAt: Date }): Promise<void> {
    await tx.insert(sessions).values(session);
  }

  async findSession(id: string): Promise<{ userId: string; expiresAt: Date; lastSeenAt: Date } | undefined> {
    const [row] = await this.sessionQuery.execute({ id });
    return row;
  }

  async touchSession(id: string, lastSeenAt: Date): Promise<void> {
    await this.db.update(sessions).set({ lastSeenAt }).where(eq(sessions.id, id));
  }

  async deleteSession(id: string, executor: Executor = this.db): Promise<void> {
    await executor.delete(sessions).where(eq(sessions.id, id));
  }

  async deleteSessionsExpiredBefore(tx: Tx, now: Date): Promise<void> {
    await tx.delete(sessions).where(lt(sessions.expiresAt, now));
  }

  /** Deletes every session of the user; answers how many. */
  async deleteUserSessions(userId: string): Promise<number> {
    const ended = await this.db.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
    return ended.length;
  }
}
