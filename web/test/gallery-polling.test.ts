import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// TanStack Query never polls outside a browser (it checks for `window` when it loads): this test
// stands in for one.
vi.hoisted(() => {
  (globalThis as { window?: unknown }).window ??= globalThis;
});

import { QueryObserver, type QueryClient } from '@tanstack/react-query';
import type { JobPage, JobStatus } from '@roomstager/contracts';
import { jobPageQuery } from '../src/features/gallery/api.ts';
import { createQueryClient } from '../src/lib/query-client.ts';
import { queryKeys } from '../src/lib/query-keys.ts';
import { jobIn } from './job-fixture.ts';

const pageOf = (status: JobStatus): JobPage => ({ jobs: [jobIn(status)], total: 1, page: 1, pageSize: 20 });

/** The server's answers to GET /api/jobs?page=1, one per call; the last one repeats. */
function answer(...statuses: [JobStatus, ...JobStatus[]]) {
  let calls = 0;
  const fetchMock = vi.fn(async () => new Response(JSON.stringify(pageOf(statuses[Math.min(calls++, statuses.length - 1)] ?? 'completed'))));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** Mounts the gallery's page-1 query, as the gallery does, and lets its first answer arrive. */
async function mount(client: QueryClient) {
  const observer = new QueryObserver(client, jobPageQuery(1));
  const unmount = observer.subscribe(() => undefined);
  const shownAtOnce = observer.getCurrentResult().data?.jobs[0]?.status;
  await vi.advanceTimersByTimeAsync(0);
  return { shownAtOnce, status: () => observer.getCurrentResult().data?.jobs[0]?.status, unmount };
}

describe('the gallery follows listed jobs to the end', () => {
  let client: QueryClient;
  beforeEach(() => {
    vi.useFakeTimers();
    client = createQueryClient();
  });
  afterEach(() => {
    client.clear();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('reads the page every 2 s while a listed job is pending or processing, and stops once none is', async () => {
    const fetchMock = answer('pending', 'processing', 'completed');
    const gallery = await mount(client);
    expect(gallery.status()).toBe('pending');
    await vi.advanceTimersByTimeAsync(2000);
    expect(gallery.status()).toBe('processing');
    await vi.advanceTimersByTimeAsync(2000);
    expect(gallery.status()).toBe('completed');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    gallery.unmount();
  });

  it('reads the page every 2 s while a completed job has variations being made, and stops once they are', async () => {
    const pages = [1, 1, 0].map((pending): JobPage => ({ ...pageOf('completed'), jobs: [{ ...jobIn('completed'), moreVariations: { allowed: true, pending, refunded: 0 } }] }));
    let calls = 0;
    const fetchMock = vi.fn(async () => new Response(JSON.stringify(pages[Math.min(calls++, pages.length - 1)])));
    vi.stubGlobal('fetch', fetchMock);
    const observer = new QueryObserver(client, jobPageQuery(1));
    const unmount = observer.subscribe(() => undefined);
    const pending = () => observer.getCurrentResult().data?.jobs[0]?.moreVariations.pending;
    await vi.advanceTimersByTimeAsync(0);
    expect(pending()).toBe(1);
    await vi.advanceTimersByTimeAsync(4000);
    expect(pending()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    unmount();
  });

  it('reads a cached page again on return while it lists a job in progress', async () => {
    answer('processing', 'completed');
    (await mount(client)).unmount();
    const back = await mount(client);
    expect(back.shownAtOnce).toBe('processing');
    expect(back.status()).toBe('completed');
    back.unmount();
  });

  it('reads a finished page again on return only once a job change has invalidated it', async () => {
    const fetchMock = answer('completed');
    (await mount(client)).unmount();
    (await mount(client)).unmount();
    expect(fetchMock).toHaveBeenCalledTimes(1);

    await client.invalidateQueries({ queryKey: queryKeys.jobs });
    (await mount(client)).unmount();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
