/**
 * The sign-in address that comes back to `path`, e.g. `/login?returnTo=/credits`. Slashes stay
 * readable, as in that example; everything else that could end the parameter (`?`, `&`, `#`,
 * spaces) is encoded.
 */
export function loginPath(path: string): string {
  return `/login?returnTo=${encodeURIComponent(path).replace(/%2F/gi, '/')}`;
}
