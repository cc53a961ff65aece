/**
 * The sign-in address that comes back to `path` (spec: `/login?returnTo=/credits`). Slashes stay
 * readable, as the spec shows them; everything else that could end the parameter (`?`, `&`, `#`,
 * spaces) is encoded.
 */
export function loginPath(path: string): string {
  return `/login?returnTo=${encodeURIComponent(path).replace(/%2F/gi, '/')}`;
}
