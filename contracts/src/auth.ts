import { z } from 'zod';

/** The signed-in user as every session-aware answer carries it (`GET /api/auth/me`, profile update). */
export const sessionUserSchema = z.object({
  id: z.uuid(),
  username: z.string(),
  email: z.string(),
  credits: z.number().int().nonnegative(),
  /** ISO 8601; shown as "Member Since". */
  createdAt: z.iso.datetime({ offset: true }),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

/** `GET /api/auth/me` (200); 401 `{message}` when nobody is signed in. */
export const meResponseSchema = z.object({ user: sessionUserSchema });
export type MeResponse = z.infer<typeof meResponseSchema>;

/** `POST /api/auth/store-return-url`. Anything but a same-origin path is ignored (sign-in lands on /generate). */
export const storeReturnUrlRequestSchema = z.strictObject({ returnTo: z.string() });
export type StoreReturnUrlRequest = z.infer<typeof storeReturnUrlRequestSchema>;

/** `returnTo`: the path sign-in will land on (the fallback when the request's value was refused). */
export const storeReturnUrlResponseSchema = z.object({ success: z.literal(true), returnTo: z.string() });
export type StoreReturnUrlResponse = z.infer<typeof storeReturnUrlResponseSchema>;

/** `POST /api/auth/logout` (bodiless). */
export const logoutResponseSchema = z.object({ success: z.literal(true) });
export type LogoutResponse = z.infer<typeof logoutResponseSchema>;

/** Where sign-in lands when no acceptable returnTo was stored. */
export const DEFAULT_RETURN_TO = '/generate';
export const RETURN_TO_MAX_LENGTH = 2048;

/**
 * Sign-in failures arrive at `/login?error=CODE`. The codes the server sends:
 * - OAuthSignin: the sign-in could not be started (identity provider unreachable).
 * - OAuthCallback: the provider's answer was refused (state, code, PKCE, nonce, token, unverified e-mail, user cancelled).
 * - OAuthCreateAccount: the account could not be created.
 * - Callback: anything else that failed while finishing the sign-in.
 * - RATE_LIMITED: too many attempts; carries `&message=`, which the login page shows
 *   because the code is not in its catalogue (web/src/features/auth/sign-in-errors.ts).
 */
export const SIGN_IN_ERROR_CODES = ['OAuthSignin', 'OAuthCallback', 'OAuthCreateAccount', 'Callback', 'RATE_LIMITED'] as const;
export type SignInErrorCode = (typeof SIGN_IN_ERROR_CODES)[number];
export const SIGN_IN_RATE_LIMITED_MESSAGE = 'Too many sign-in attempts. Please wait a minute and try again.';
