import { afterEach, describe, expect, it, vi } from 'vitest';
import { userStatsSchema } from '@roomstager/contracts';
import { ApiError, apiJson, apiJsonOrNull, apiRequest, ContractError, navigation, throwIfResNotOk } from '../src/lib/api-client.ts';
import { fetchSession } from '../src/lib/session.ts';

const respond = (status: number, body: string, statusText = 'Status') => new Response(body || null, { status, statusText });

describe('throwIfResNotOk', () => {
  afterEach(() => vi.restoreAllMocks());

  it('passes OK answers', async () => {
    await expect(throwIfResNotOk(respond(200, '{}'))).resolves.toBeUndefined();
  });

  it('throws the body message with its error and details', async () => {
    const err = await throwIfResNotOk(respond(400, JSON.stringify({ message: 'Bad label', error: 'BAD', details: [1] }))).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ message: 'Bad label', status: 400, error: 'BAD', details: [1] });
  });

  it('uses status and status text when the body is not JSON', async () => {
    const err = await throwIfResNotOk(respond(502, '<html>gateway</html>', 'Bad Gateway')).catch((e) => e);
    expect(err.message).toBe('502 Bad Gateway');
  });

  it('parses the status text when the body is empty, and falls back to status and text', async () => {
    const err = await throwIfResNotOk(respond(500, '', 'Internal Server Error')).catch((e) => e);
    expect(err.message).toBe('500 Internal Server Error');
  });

  it('uses status and status text when the JSON body has no message', async () => {
    const err = await throwIfResNotOk(respond(403, JSON.stringify({ error: 'X' }), 'Forbidden')).catch((e) => e);
    expect(err).toMatchObject({ message: '403 Forbidden', error: 'X' });
  });

  it('follows redirectTo on a 401 and throws nothing', async () => {
    const assign = vi.spyOn(navigation, 'assign').mockImplementation(() => undefined);
    await expect(throwIfResNotOk(respond(401, JSON.stringify({ redirectTo: '/login' })))).resolves.toBeUndefined();
    expect(assign).toHaveBeenCalledWith('/login');
  });

  it('throws on a 401 without redirectTo', async () => {
    const err = await throwIfResNotOk(respond(401, JSON.stringify({ message: 'Not authenticated' }))).catch((e) => e);
    expect(err.message).toBe('Not authenticated');
  });
});

describe('apiRequest', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends credentials always, and JSON only with a payload', async () => {
    const fetchMock = vi.fn(async () => respond(200, '{}'));
    vi.stubGlobal('fetch', fetchMock);
    await apiRequest('POST', '/api/auth/logout');
    await apiRequest('PATCH', '/api/jobs/1', { userLabel: 'Kitchen' });
    expect(fetchMock.mock.calls[0]).toEqual(['/api/auth/logout', { method: 'POST', headers: {}, body: undefined, credentials: 'include' }]);
    expect(fetchMock.mock.calls[1]).toEqual([
      '/api/jobs/1',
      { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: '{"userLabel":"Kitchen"}', credentials: 'include' },
    ]);
  });

  it('sends a JSON body encoded beforehand as it is', async () => {
    const fetchMock = vi.fn(async () => respond(200, '{}'));
    vi.stubGlobal('fetch', fetchMock);
    const body = new Blob(['{"imageData":"/9j/","filename":"room.jpg"}'], { type: 'application/json' });
    await apiRequest('POST', '/api/upload', body);
    expect(fetchMock).toHaveBeenCalledWith('/api/upload', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body, credentials: 'include' });
  });
});

describe('answers read through their contract', () => {
  afterEach(() => vi.unstubAllGlobals());
  const stats = { totalJobs: 2, totalCredits: 10, totalSpent: 900 };

  it('reads 401 as null where only a signed-in user has the data, reading the answer to its end', async () => {
    const answer = respond(401, JSON.stringify({ message: 'no' }));
    const fetchMock = vi.fn(async () => answer);
    vi.stubGlobal('fetch', fetchMock);
    const signal = new AbortController().signal;
    const result = await apiJsonOrNull('/api/users/stats', userStatsSchema, { signal });
    expect(result).toBeNull();
    expect(fetchMock).toHaveBeenCalledWith('/api/users/stats', { method: 'GET', headers: {}, credentials: 'include', signal });
    expect(answer.bodyUsed).toBe(true);
  });

  it('answers the parsed body, and refuses one that breaks the contract', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => respond(200, JSON.stringify(stats))));
    await expect(apiJsonOrNull('/api/users/stats', userStatsSchema)).resolves.toEqual(stats);
    vi.stubGlobal('fetch', vi.fn(async () => respond(200, JSON.stringify({ totalJobs: 'two' }))));
    await expect(apiJson('GET', '/api/users/stats', userStatsSchema)).rejects.toBeInstanceOf(ContractError);
  });

  it('loads a contract given as a loader before parsing', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => respond(200, JSON.stringify(stats))));
    await expect(apiJson('GET', '/api/users/stats', async () => userStatsSchema)).resolves.toEqual(stats);
  });
});

describe('session check', () => {
  afterEach(() => vi.unstubAllGlobals());
  const signal = new AbortController().signal;

  it('reads 401 as no user, and reads the answer to its end so the browser can settle', async () => {
    const answer = respond(401, JSON.stringify({ message: 'Not authenticated' }));
    vi.stubGlobal('fetch', vi.fn(async () => answer));
    await expect(fetchSession({ signal })).resolves.toBeNull();
    expect(answer.bodyUsed).toBe(true);
  });

  it("fails other statuses with 'status: statusText', also after reading the answer", async () => {
    const answer = respond(503, 'down', 'Service Unavailable');
    vi.stubGlobal('fetch', vi.fn(async () => answer));
    await expect(fetchSession({ signal })).rejects.toThrow('503: Service Unavailable');
    expect(answer.bodyUsed).toBe(true);
  });

  it('answers the user of a session', async () => {
    const user = { id: '7b0d1c52-54a4-4c1f-9d0e-2f4a5b6c7d8e', username: 'Ada', email: 'ada@example.com', credits: 3, createdAt: '2026-01-01T10:00:00.000Z' };
    vi.stubGlobal('fetch', vi.fn(async () => respond(200, JSON.stringify({ user }))));
    await expect(fetchSession({ signal })).resolves.toEqual(user);
  });
});
