/**
 * The one HTTP helper of the web app: credentials on every call, a JSON
 * body and content type only when there is a payload, and one way of turning a failed answer into
 * an error.
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly error?: unknown,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Sends the browser elsewhere; a seam so tests can observe it. */
export const navigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};

/**
 * Reads a non-OK answer: the body text (or the status text when empty) parsed as JSON. A 401 with
 * a redirectTo sends the browser there and throws nothing; otherwise the error carries the body's
 * message (or 'status statusText'), error and details.
 */
export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = (await res.text()) || res.statusText;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError(`${res.status} ${res.statusText}`, res.status);
  }
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  if (res.status === 401 && typeof fields.redirectTo === 'string') {
    navigation.assign(fields.redirectTo);
    return;
  }
  const message = typeof fields.message === 'string' ? fields.message : `${res.status} ${res.statusText}`;
  throw new ApiError(message, res.status, fields.error, fields.details);
}

/** `data` is the JSON payload; a Blob is one encoded already (a large body, built off the page's thread), sent as it is. */
export async function apiRequest(method: string, url: string, data?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const res = await fetch(url, {
    method,
    headers: data !== undefined ? { ...headers, 'Content-Type': 'application/json' } : headers,
    body: data === undefined ? undefined : data instanceof Blob ? data : JSON.stringify(data),
    credentials: 'include',
  });
  await throwIfResNotOk(res);
  return res;
}

/** apiRequest that reads the answer as JSON. */
export async function apiJson<T>(method: string, url: string, data?: unknown, headers?: Record<string, string>): Promise<T> {
  const res = await apiRequest(method, url, data, headers);
  return (await res.json()) as T;
}
