import { eq, sql } from 'drizzle-orm';
import type { Db, Executor, Tx } from '../../db/client.ts';
import { users } from '../../db/schema.ts';

export type UserRow = typeof users.$inferSelect;

/** What a profile change may set. */
export type ProfileChange = Partial<Pick<UserRow, 'username' | 'email'>>;

/** The account behind a session: every signed-in request reads it. */
function prepareByIdQuery(db: Db) {
  return db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare('user_by_id');
}

/**
 * Every statement on `users` but those on its `credits` column, which only the credits domain
 * writes (a new row starts at the column's default, 0).
 */
export class UsersRepository {
  /** Prepared once, planned once per connection. */
  private readonly byIdQuery: ReturnType<typeof prepareByIdQuery>;

  constructor(private readonly db: Db) {
    this.byIdQuery = prepareByIdQuery(db);
  }

  async findById(id: string): Promise<UserRow | undefined> {
    const [row] = await this.byIdQuery.execute({ id });
    return row;
  }

  async findBySubject(subject: string, executor: Executor = this.db): Promise<UserRow | undefined> {
    const [row] = await executor.select().from(users).where(eq(users.googleSub, subject));
    return row;
  }

  /** Inserts the account of a provider subject; undefined when the subject has one already. */
  async insertIfNew(tx: Tx, account: { googleSub: string; email: string; username: string }): Promise<UserRow | undefined> {
    const [row] = await tx.insert(users).values(account).onConflictDoNothing({ target: users.googleSub }).returning();
    return row;
  }

  async update(userId: string, change: ProfileChange): Promise<UserRow | undefined> {
    const [row] = await this.db.update(users).set(change).where(eq(users.id, userId)).returning();
    return row;
  }
}
