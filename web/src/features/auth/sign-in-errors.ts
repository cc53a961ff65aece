/** The sign-in error codes carried by /login?error=... and their messages. */
export const SIGN_IN_ERROR_MESSAGES: Readonly<Record<string, string>> = {
  OAuthSignin: 'There was an error signing in with Google. Please try again.',
  OAuthCallback: 'Authentication failed. Please try signing in again.',
  OAuthCreateAccount: 'Could not create your account. Please try again.',
  EmailCreateAccount: 'Could not create your account. Please try again.',
  Callback: 'Authentication failed. Please try again.',
  OAuthAccountNotLinked: 'This email is already associated with another account. Please use a different sign-in method.',
  EmailSignin: 'There was an error sending the sign-in email. Please try again.',
  CredentialsSignin: 'Invalid credentials. Please check your email and password.',
  SessionRequired: 'Please sign in to access this page.',
  RECAPTCHA_FAILED: 'Please complete the reCAPTCHA verification.',
  MISSING_CREDENTIALS: 'Please enter both email and password.',
  INVALID_CREDENTIALS: 'Invalid email or password. Please try again.',
  USER_EXISTS: 'An account with this email already exists. Please sign in instead.',
  OAUTH_REQUIRED: 'This account uses Google sign-in. Please use the "Sign in with Google" button.',
  VALIDATION_ERROR: 'Please check your input and try again.',
  SERVER_ERROR: 'Something went wrong. Please try again later.',
};

export const UNKNOWN_SIGN_IN_ERROR = 'An unexpected error occurred';

/** The alert text: the message parameter first, then the catalogue, then the generic text. */
export function signInErrorMessage(code: string, message: string | null): string {
  if (message) return message;
  return Object.hasOwn(SIGN_IN_ERROR_MESSAGES, code) ? (SIGN_IN_ERROR_MESSAGES[code] as string) : UNKNOWN_SIGN_IN_ERROR;
}
