import { RETURN_TO_MAX_LENGTH } from '@roomstager/contracts';
import { isApiPath } from '../../api/paths.ts';

// Control characters (C0, DEL, C1): never part of a path we redirect to.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
const PROBE_ORIGIN = 'http://return-to.invalid';

/**
 * A same-origin path to send the browser to after sign-in, or null for anything else. It must
 * start with exactly one '/', contain no backslash and no control character, resolve on this
 * origin and not point into the API (however its path is encoded). The answer is re-serialised by the URL parser (pathname +
 * search + hash), so what is stored is exactly what the browser will read. Checked when stored
 * and again before redirecting.
 */
export function sanitizeReturnTo(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > RETURN_TO_MAX_LENGTH) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  if (CONTROL_CHARACTERS.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PROBE_ORIGIN) return null;
  // Dot segments can collapse into '//' ('/..//evil.example'): a protocol-relative URL.
  if (url.pathname.startsWith('//')) return null;
  if (isApiPath(url.pathname)) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.length <= RETURN_TO_MAX_LENGTH ? path : null;
}
