/** Every screen of the single-page app; anything else is the 404 page. */
export const APP_ROUTES = [
  '/',
  '/login',
  '/signup',
  '/pricing',
  '/privacy-policy',
  '/terms-and-conditions',
  '/checkout/:amount',
  '/generate',
  '/gallery',
  '/listings',
  '/listings/:id',
  '/credits',
  '/profile',
  '/api-keys',
  '/docs/api',
] as const;

export function isAppRoute(pathname: string): boolean {
  const clean = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return APP_ROUTES.some((route) => {
    if (!route.includes(':')) return route === clean;
    const prefix = route.slice(0, route.indexOf(':'));
    const rest = clean.slice(prefix.length);
    return clean.startsWith(prefix) && rest.length > 0 && !rest.includes('/');
  });
}
