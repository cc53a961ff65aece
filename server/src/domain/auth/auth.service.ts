import { createHash, randomBytes } from 'node:crypto';
import { DEFAULT_RETURN_TO, type SessionUser, type SignInErrorCode } from '@roomstager/contracts';
import type { Db } from '../../db/client.ts';
import { OidcClient, OidcError } from '../../integrations/google-oidc.ts';
import type { UsersService } from '../users/users.service.ts';
import { AuthRepository } from './auth.repository.ts';
import { sanitizeReturnTo } from './return-to.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Absolute session lifetime, whatever the activity: the cookie's Max-Age too. */
export const SESSION_TTL_MS = 30 * DAY_MS;
/** Idle timeout: a session unused this long ends, server-side. */
export const SESSION_IDLE_MS = 7 * DAY_MS;
/** lastSeenAt is written at most this often, so reading a session rarely writes. */
const SESSION_TOUCH_MS = 60 * 60 * 1000;
export const SIGN_IN_TTL_MS = 10 * 60 * 1000;

/** A sign-in that cannot finish; `code` goes to /login?error=, `reason` only to the log. */
export class SignInError extends Error {
  constructor(
    readonly code: SignInErrorCode,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`Sign-in failed (${code}): ${reason}`, options);
    this.name = 'SignInError';
  }
}

/** 256 random bits, base64url: the value of the session and sign-in cookies. */
function newToken(): string {
  return randomBytes(32).toString('base64url');
}

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** What the database keeps instead of a token: a leaked table grants nothing. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const wellFormed = (token: string | undefined): token is string => typeof token === 'string' && TOKEN_PATTERN.test(token);

export interface CompletedSignIn {
  user: SessionUser;
  created: boolean;
  sessionToken: string;
  sessionExpiresAt: Date;
  returnTo: string;
}

/**
 * Sign-in (OpenID Connect authorization code + PKCE + state + nonce, the attempt stored
 * server-side and bound to the browser by a cookie) and sessions (random token in a cookie,
 * only its hash stored, a new one on every sign-in, 30 days).
 */
export class AuthService {
  private readonly repository: AuthRepository;

  constructor(
    private readonly db: Db,
    private readonly users: UsersService,
    private readonly oidc: OidcClient,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.repository = new AuthRepository(db);
  }

  /**
   * Keeps the path to land on after the coming sign-in. A refused value is ignored (the
   * sign-in lands on /generate). Answers the new sign-in cookie token and the path in effect.
   */
  async storeReturnTo(previousToken: string | undefined, returnTo: unknown): Promise<{ token: string; returnTo: string }> {
    const path = sanitizeReturnTo(returnTo);
    const token = newToken();
    await this.db.transaction(async (tx) => {
      await this.repository.deleteAttemptsExpiredBefore(tx, this.now());
      if (wellFormed(previousToken)) await this.repository.takeAttempt(hashToken(previousToken), tx);
      await this.repository.insertAttempt(tx, { id: hashToken(token), returnTo: path, expiresAt: this.expiry(SIGN_IN_TTL_MS) });
    });
    return { token, returnTo: path ?? DEFAULT_RETURN_TO };
  }

  /**
   * Starts a sign-in: fresh state, nonce and PKCE verifier stored server-side (with the
   * returnTo stored before, if any), and the provider's authorization URL.
   */
  async beginSignIn(previousToken: string | undefined): Promise<{ token: string; authorizationUrl: URL }> {
    const checks = OidcClient.newAuthorizationChecks();
    let authorizationUrl: URL;
    try {
      authorizationUrl = await this.oidc.authorizationUrl(checks);
    } catch (err) {
      throw new SignInError('OAuthSignin', 'identity provider discovery failed', { cause: err });
    }
    const token = newToken();
    await this.db.transaction(async (tx) => {
      let returnTo: string | null = null;
      if (wellFormed(previousToken)) {
        const previous = await this.repository.takeAttempt(hashToken(previousToken), tx);
        if (previous && previous.expiresAt > this.now()) returnTo = sanitizeReturnTo(previous.returnTo);
      }
      await this.repository.deleteAttemptsExpiredBefore(tx, this.now());
      await this.repository.insertAttempt(tx, {
        id: hashToken(token),
        returnTo,
        state: checks.state,
        nonce: checks.nonce,
        codeVerifier: checks.codeVerifier,
        expiresAt: this.expiry(SIGN_IN_TTL_MS),
      });
    });
    return { token, authorizationUrl };
  }

  /**
   * Finishes a sign-in from the callback's query string: consumes the attempt (single use),
   * redeems the code, requires a verified e-mail, finds or creates the account and starts a
   * new session, ending the one the browser presented (no fixation).
   */
  async completeSignIn(input: {
    attemptToken: string | undefined;
    search: string;
    previousSessionToken: string | undefined;
  }): Promise<CompletedSignIn> {
    if (!wellFormed(input.attemptToken)) throw new SignInError('OAuthCallback', 'no sign-in in progress in this browser');
    const attempt = await this.repository.takeAttempt(hashToken(input.attemptToken));
    if (!attempt || !attempt.state || !attempt.nonce || !attempt.codeVerifier) {
      throw new SignInError('OAuthCallback', 'unknown or already used sign-in attempt');
    }
    if (attempt.expiresAt <= this.now()) throw new SignInError('OAuthCallback', 'sign-in attempt expired');

    const providerError = new URLSearchParams(input.search).get('error');
    if (providerError) throw new SignInError('OAuthCallback', `provider answered ${providerError.slice(0, 100)}`);

    let identity;
    try {
      identity = await this.oidc.redeem(input.search, {
        state: attempt.state,
        nonce: attempt.nonce,
        codeVerifier: attempt.codeVerifier,
      });
    } catch (err) {
      const reason = err instanceof OidcError ? err.reason : 'authorization response refused';
      throw new SignInError('OAuthCallback', reason, { cause: err });
    }
    if (!identity.email) throw new SignInError('OAuthCallback', 'the identity provider sent no e-mail address');
    if (!identity.emailVerified) throw new SignInError('OAuthCallback', 'e-mail address not verified');

    let account: { user: SessionUser; created: boolean };
    try {
      account = await this.users.findOrCreateBySubject({
        subject: identity.subject,
        email: identity.email,
        name: identity.name,
      });
    } catch (err) {
      throw new SignInError('OAuthCreateAccount', 'account could not be found or created', { cause: err });
    }

    let session: { token: string; expiresAt: Date };
    try {
      session = await this.createSession(account.user.id, input.previousSessionToken);
    } catch (err) {
      throw new SignInError('Callback', 'session could not be created', { cause: err });
    }
    return {
      ...account,
      sessionToken: session.token,
      sessionExpiresAt: session.expiresAt,
      returnTo: sanitizeReturnTo(attempt.returnTo) ?? DEFAULT_RETURN_TO,
    };
  }

  /** A new session for the user; the session the browser presented (if any) ends. */
  async createSession(userId: string, previousToken?: string): Promise<{ token: string; expiresAt: Date }> {
    const token = newToken();
    const expiresAt = this.expiry(SESSION_TTL_MS);
    await this.db.transaction(async (tx) => {
      if (wellFormed(previousToken)) await this.repository.deleteSession(hashToken(previousToken), tx);
      await this.repository.deleteSessionsExpiredBefore(tx, this.now());
      await this.repository.insertSession(tx, { id: hashToken(token), userId, expiresAt, lastSeenAt: this.now() });
    });
    return { token, expiresAt };
  }

  /** The user of a session token, or null when it is unknown, malformed, expired or idle too long. */
  async resolveSession(token: string | undefined): Promise<SessionUser | null> {
    if (!wellFormed(token)) return null;
    const id = hashToken(token);
    const session = await this.repository.findSession(id);
    if (!session) return null;
    const now = this.now();
    const idle = now.getTime() - session.lastSeenAt.getTime();
    if (session.expiresAt <= now || idle >= SESSION_IDLE_MS) {
      await this.repository.deleteSession(id);
      return null;
    }
    if (idle >= SESSION_TOUCH_MS) await this.repository.touchSession(id, now);
    return this.users.findById(session.userId);
  }

  /** Ends every session of a user ("sign out everywhere"); answers how many. */
  endAllSessions(userId: string): Promise<number> {
    return this.repository.deleteUserSessions(userId);
  }

  /** Ends a session server-side; unknown tokens are ignored. */
  async endSession(token: string | undefined): Promise<void> {
    if (!wellFormed(token)) return;
    await this.repository.deleteSession(hashToken(token));
  }

  private expiry(ttlMs: number): Date {
    return new Date(this.now().getTime() + ttlMs);
  }
}
