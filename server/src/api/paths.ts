/**
 * Whether a request path (or URL with a query) is in the API, judged as the router judges it:
 * percent-decoded, so `/%61pi/...` (which the router serves as `/api/...`) counts as the API.
 */
export function isApiPath(pathOrUrl: string): boolean {
  const raw = pathOrUrl.split(/[?#]/, 1)[0] ?? '';
  let path = raw;
  try {
    path = decodeURIComponent(raw);
  } catch {
    // A malformed escape routes nowhere; judge the raw text.
  }
  return path === '/api' || path.startsWith('/api/');
}
