/** This page's style nonce, written by the server into <meta name="csp-nonce"> (null in dev). */
export function cspStyleNonce(): string | null {
  const value = document.querySelector('meta[name="csp-nonce"]')?.getAttribute('content');
  return value && !value.startsWith('__') ? value : null;
}
