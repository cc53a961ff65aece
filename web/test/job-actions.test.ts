import { MutationObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { retryJob } from '../src/features/gallery/api.ts';
import { createJob } from '../src/features/generate/api.ts';
import { withIdempotencyKey } from '../src/lib/job-changes.ts';
import { createQueryClient } from '../src/lib/query-client.ts';
import { jobIn } from './job-fixture.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const body = { originalImageUrl: '/api/images/1', style: 'modern' as const, userLabel: null };
const created = () => new Response(JSON.stringify(jobIn('pending')), { status: 201 });

/** Every Idempotency-Key the stubbed fetch was called with, and the bodies. */
function stubFetch(...answers: Array<() => Promise<Response>>) {
  const fetchMock = vi.fn((_url: string, _init: RequestInit) => (answers.shift() ?? (() => Promise.resolve(created())))());
  vi.stubGlobal('fetch', fetchMock);
  return {
    keys: () => fetchMock.mock.calls.map(([, init]) => (init.headers as Record<string, string>)['Idempotency-Key']),
    bodies: () => fetchMock.mock.calls.map(([, init]) => init.body),
  };
}
const networkError = () => Promise.reject(new TypeError('Failed to fetch'));

describe('job actions send one Idempotency-Key per press', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('makes a new UUID for each press, kept out of the body', async () => {
    const calls = stubFetch();
    const first = withIdempotencyKey(body);
    const second = withIdempotencyKey(body);
    expect(first.idempotencyKey).toMatch(UUID);
    expect(second.idempotencyKey).not.toBe(first.idempotencyKey);
    await createJob(first);
    await retryJob(withIdempotencyKey({ id: 'job-1' }));
    expect(calls.keys()).toEqual([first.idempotencyKey, expect.stringMatching(UUID)]);
    expect(calls.bodies()).toEqual([JSON.stringify(body), undefined]);
  });

  it('does not retry a failed submission by itself (mutations never retry)', async () => {
    const calls = stubFetch(networkError);
    const observer = new MutationObserver(createQueryClient(), { mutationFn: createJob });
    await expect(observer.mutate(withIdempotencyKey(body))).rejects.toThrow('Failed to fetch');
    expect(calls.keys()).toHaveLength(1);
  });

  it('reuses the press key on every attempt of it if a mutation retries', async () => {
    const calls = stubFetch(networkError);
    const observer = new MutationObserver(createQueryClient(), { mutationFn: createJob, retry: 1, retryDelay: 0 });
    const press = withIdempotencyKey(body);
    await observer.mutate(press);
    await observer.mutate(withIdempotencyKey(body));
    const [first, retried, next] = calls.keys();
    expect(retried).toBe(first);
    expect(first).toBe(press.idempotencyKey);
    expect(next).not.toBe(first);
  });
});
