import {
  FREE_TRIAL_CREDITS,
  USERNAME_MAX_LENGTH,
  type SessionUser,
  type UpdateProfileRequest,
  type UserStats,
} from '@roomstager/contracts';
import { NotFoundError } from '../errors.ts';
import type { Db } from '../../db/client.ts';
import type { CreditsService } from '../credits/credits.service.ts';
import { UsersRepository, type ProfileChange, type UserRow } from './users.repository.ts';

export function toSessionUser(row: Pick<UserRow, 'id' | 'username' | 'email' | 'credits' | 'createdAt'>): SessionUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    credits: row.credits,
    createdAt: row.createdAt.toISOString(),
  };
}

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

/** A username for a new account: the provider's name, else the e-mail's local part. */
export function initialUsername(name: string | undefined, email: string): string {
  const clean = (s: string) => s.replace(CONTROL_CHARACTERS, '').trim().slice(0, USERNAME_MAX_LENGTH).trim();
  return clean(name ?? '') || clean(email.split('@')[0] ?? '') || 'User';
}

export interface ExternalIdentity {
  subject: string;
  email: string;
  name: string | undefined;
}

/** What the stats read from the domains that own them (jobs, payments). */
export interface UserActivity {
  completedJobs(userId: string): Promise<number>;
  spentCents(userId: string): Promise<number>;
}

export class UsersService {
  private readonly repository: UsersRepository;

  constructor(
    private readonly db: Db,
    private readonly credits: CreditsService,
    private readonly activity: UserActivity,
  ) {
    this.repository = new UsersRepository(db);
  }

  async findById(id: string): Promise<SessionUser | null> {
    const row = await this.repository.findById(id);
    return row ? toSessionUser(row) : null;
  }

  /**
   * The account of a provider subject, created on first sign-in with the free trial credits
   * granted in the same transaction (one `grant` ledger row). Accounts are keyed on the
   * subject, never on the e-mail address. Safe under concurrent first sign-ins.
   */
  async findOrCreateBySubject(identity: ExternalIdentity): Promise<{ user: SessionUser; created: boolean }> {
    const existing = await this.repository.findBySubject(identity.subject);
    if (existing) return { user: toSessionUser(existing), created: false };

    return this.db.transaction(async (tx) => {
      const inserted = await this.repository.insertIfNew(tx, {
        googleSub: identity.subject,
        email: identity.email,
        username: initialUsername(identity.name, identity.email),
      });
      if (!inserted) {
        // Another request created it between our read and our insert.
        const row = await this.repository.findBySubject(identity.subject, tx);
        if (!row) throw new Error('User vanished during sign-in');
        return { user: toSessionUser(row), created: false };
      }
      const { balance } = await this.credits.grantFreeTrial(tx, inserted.id, FREE_TRIAL_CREDITS);
      return { user: toSessionUser({ ...inserted, credits: balance }), created: true };
    });
  }

  /** Applies a validated profile change; answers the updated user. */
  async updateProfile(userId: string, change: UpdateProfileRequest): Promise<SessionUser> {
    const set: ProfileChange = {};
    if (change.username !== undefined) set.username = change.username;
    if (change.email !== undefined) set.email = change.email;
    if (Object.keys(set).length === 0) {
      const user = await this.findById(userId);
      if (!user) throw new NotFoundError('User not found');
      return user;
    }
    const row = await this.repository.update(userId, set);
    if (!row) throw new NotFoundError('User not found');
    return toSessionUser(row);
  }

  /**
   * Images generated (the user's completed jobs), credits purchased (the purchase ledger rows,
   * net of credits a refund took back), money spent in cents (completed, unrefunded payments).
   */
  async stats(userId: string): Promise<UserStats> {
    const [totalCredits, totalJobs, totalSpent] = await Promise.all([
      this.credits.totalPurchased(userId),
      this.activity.completedJobs(userId),
      this.activity.spentCents(userId),
    ]);
    return { totalJobs, totalCredits: Math.max(0, totalCredits), totalSpent };
  }
}
