// The one way the web app calls the API: same-origin credentials on every call, a JSON body and
// content type only when there is a payload (the server's cross-site check refuses any other
// content type on an unsafe method), one way of turning a failed answer into an error, and every
// answer read through its zod contract from `@roomstager/contracts`. Each feature's calls sit in
// its own `api.ts`; nothing else calls `fetch`.

/** A failed answer: its status, and the body's message, error code and details when it had them. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly error?: unknown,
    readonly details?: unknown,
    readonly statusText = '',
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** An answer that does not match its contract: the server and this build disagree. */
export class ContractError extends Error {
  constructor(
    readonly url: string,
    options: { cause: unknown },
  ) {
    super('Unexpected answer from the server. Please reload the page.', options);
    this.name = 'ContractError';
  }
}

/** Sends the browser elsewhere; a seam so tests can observe it. */
export const navigation = {
  assign(url: string): void {
    window.location.assign(url);
  },
};

/** A contract: a zod schema of `@roomstager/contracts` (only its `parse` is used). */
export interface Contract<T> {
  parse(data: unknown): T;
}

/**
 * A contract, or a loader of one. The contracts bring zod (about 25 KB gzip); the public pages
 * load it with their first answer instead of before they first paint.
 */
export type ContractSource<T> = Contract<T> | (() => Promise<Contract<T>>);

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

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
    throw new ApiError(`${res.status} ${res.statusText}`, res.status, undefined, undefined, res.statusText);
  }
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  if (res.status === 401 && typeof fields.redirectTo === 'string') {
    navigation.assign(fields.redirectTo);
    return;
  }
  const message = typeof fields.message === 'string' ? fields.message : `${res.status} ${res.statusText}`;
  throw new ApiError(message, res.status, fields.error, fields.details, res.statusText);
}

function send(method: Method, url: string, data: unknown, { headers = {}, signal }: RequestOptions): Promise<Response> {
  return fetch(url, {
    method,
    headers: data !== undefined ? { ...headers, 'Content-Type': 'application/json' } : headers,
    body: data === undefined ? undefined : data instanceof Blob ? data : JSON.stringify(data),
    credentials: 'include',
    signal,
  });
}

async function parseAnswer<T>(url: string, res: Response, contract: ContractSource<T>): Promise<T> {
  const body: unknown = await res.json();
  const schema = typeof contract === 'function' ? await contract() : contract;
  try {
    return schema.parse(body);
  } catch (cause) {
    throw new ContractError(url, { cause });
  }
}

/** `data` is the JSON payload; a Blob is one encoded already (a large body, built off the page's thread), sent as it is. */
export async function apiRequest(method: Method, url: string, data?: unknown, options: RequestOptions = {}): Promise<Response> {
  const res = await send(method, url, data, options);
  await throwIfResNotOk(res);
  return res;
}

/** apiRequest that reads the answer as JSON, parsed by its contract. */
export async function apiJson<T>(method: Method, url: string, contract: ContractSource<T>, data?: unknown, options?: RequestOptions): Promise<T> {
  return parseAnswer(url, await apiRequest(method, url, data, options), contract);
}

/**
 * A GET of what only a signed-in user has: a 401 is nobody signed in (null), not an error. Its
 * answer is still read to its end, or the browser counts the request as in flight.
 */
export async function apiJsonOrNull<T>(url: string, contract: ContractSource<T>, options: RequestOptions = {}): Promise<T | null> {
  const res = await send('GET', url, undefined, options);
  if (res.status === 401) {
    await res.text();
    return null;
  }
  await throwIfResNotOk(res);
  return parseAnswer(url, res, contract);
}
