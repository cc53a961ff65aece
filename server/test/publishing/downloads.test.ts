import { downloadSizesResponseSchema, type Job } from '@roomstager/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelBox } from '../../src/domain/downloads/label.ts';
import { renditionKey } from '../../src/storage/keys.ts';
import { createSignedInUser, createTestApp, databaseKinds, type TestApp } from '../helpers.ts';
import { deliver, simulator } from '../payments/payment-helpers.ts';
import { api, type Client } from '../pipeline/pipeline-helpers.ts';
import { buyPack, completedJob } from './publishing-helpers.ts';

const FOUR_K_REFUSED = '4K downloads come with the Enterprise pack. HD is included with every pack; see the pricing page to get 4K.';

async function dimensions(body: Buffer): Promise<[number, number]> {
  const meta = await sharp(body).metadata();
  return [meta.width ?? 0, meta.height ?? 0];
}

/** Mean absolute difference of two equally sized JPEGs over a region, per channel value. */
async function regionDifference(a: Buffer, b: Buffer, region: { left: number; top: number; width: number; height: number }): Promise<number> {
  const [ra, rb] = await Promise.all([a, b].map((img) => sharp(img).extract(region).removeAlpha().raw().toBuffer()));
  let sum = 0;
  for (let i = 0; i < ra!.length; i++) sum += Math.abs(ra![i]! - rb![i]!);
  return sum / ra!.length;
}

/** Issue 16: HD for every account, 4K for Enterprise buyers only, never enlarged, labelled on request. */
describe.each(databaseKinds)('staged downloads on %s', (kind) => {
  let t: TestApp;
  let free: Client;
  let starter: Client;
  let professional: Client;
  let enterprise: Client;
  let refunded: Client;
  let big: Job;
  let mid: Job;
  let small: Job;

  beforeAll(async () => {
    t = await createTestApp({ kind, env: { UPLOAD_RATE_LIMIT: '1000', JOB_RATE_LIMIT: '1000', PAYMENT_RATE_LIMIT: '1000' } });
    [free, starter, professional, enterprise, refunded] = await Promise.all(
      ['free', 'starter', 'professional', 'enterprise', 'refunded'].map((name) => createSignedInUser(t, { name, credits: 10 })),
    ) as [Client, Client, Client, Client, Client];
    await buyPack(t, starter, 'starter');
    await buyPack(t, professional, 'professional');
    await buyPack(t, enterprise, 'enterprise');
    // An Enterprise purchase refunded in full: the pack (and its 4K) is gone again.
    const refundedOrder = await buyPack(t, refunded, 'enterprise');
    expect((await deliver(t.app, simulator(t).refundCapture(refundedOrder))).statusCode).toBe(200);
    big = await completedJob(t, enterprise, 4800, 3200);
    mid = await completedJob(t, enterprise, 2400, 1600);
    small = await completedJob(t, enterprise, 1200, 800);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const download = (who: Client, job: Job, query: string) => api(t, who).call('GET', `/api/jobs/${job.id}/download?${query}`);

  it('stores the staging at the original photo\'s full size', async () => {
    const res = await api(t, enterprise).call('GET', big.stagedImageUrl as string);
    expect(await dimensions(res.rawPayload)).toEqual([4800, 3200]);
  });

  it('HD for every account, at a long side of 1920, named as the staged downloads are', async () => {
    for (const who of [free, starter, professional, enterprise, refunded]) {
      const job = await completedJob(t, who, 2400, 1600);
      const res = await download(who, job, 'size=hd');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="staged-modern-\d{13}\.jpg"$/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(await dimensions(res.rawPayload)).toEqual([1920, 1280]);
    }
  }, 60_000);

  it('4K only for an Enterprise buyer: 3840 on the long side, or the full staged size when smaller; never enlarged', async () => {
    expect(await dimensions((await download(enterprise, big, 'size=4k')).rawPayload)).toEqual([3840, 2560]);
    expect(await dimensions((await download(enterprise, mid, 'size=4k')).rawPayload)).toEqual([2400, 1600]);
    expect(await dimensions((await download(enterprise, mid, 'size=hd')).rawPayload)).toEqual([1920, 1280]);
    for (const size of ['hd', '4k']) {
      const res = await download(enterprise, small, `size=${size}`);
      expect(res.statusCode).toBe(200);
      expect(await dimensions(res.rawPayload)).toEqual([1200, 800]);
    }
  });

  it('4K for any other account (free trial, Starter, Professional, a refunded Enterprise) is a 403 saying how to get it', async () => {
    for (const who of [free, starter, professional, refunded]) {
      const job = await completedJob(t, who, 1600, 1200);
      const res = await download(who, job, 'size=4k&label=1');
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: 'SIZE_NOT_INCLUDED', message: FOUR_K_REFUSED });
    }
  }, 60_000);

  it('answers the sizes each account may download', async () => {
    const sizes = async (who: Client) => downloadSizesResponseSchema.parse((await api(t, who).call('GET', '/api/downloads/sizes')).json()).sizes;
    expect(await sizes(enterprise)).toEqual(['hd', '4k']);
    for (const who of [free, starter, professional, refunded]) expect(await sizes(who)).toEqual(['hd']);
    expect((await t.app.inject({ method: 'GET', url: '/api/downloads/sizes' })).statusCode).toBe(401);
  });

  it('stamps "Virtually Staged" in the bottom-left corner when asked, sized to the image, and nowhere else', async () => {
    for (const [job, size, width, height] of [
      [big, '4k', 3840, 2560],
      [big, 'hd', 1920, 1280],
      [small, 'hd', 1200, 800],
    ] as const) {
      const plain = (await download(enterprise, job, `size=${size}&label=0`)).rawPayload;
      const labelled = (await download(enterprise, job, `size=${size}&label=1`)).rawPayload;
      expect(await dimensions(labelled)).toEqual([width, height]);
      const box = labelBox(width, height);
      // Sized to the image: its capitals 2.2% of the short side, the badge about twice that.
      expect(box.height / height).toBeGreaterThan(0.035);
      expect(box.height / height).toBeLessThan(0.06);
      expect(box.width).toBeLessThan(width * 0.25);
      expect(box.left).toBeLessThan(width * 0.05);
      expect(box.top + box.height).toBeGreaterThan(height * 0.95);
      expect(await regionDifference(plain, labelled, box)).toBeGreaterThan(40);
      const corner = { width: box.width, height: box.height };
      expect(await regionDifference(plain, labelled, { ...corner, left: width - box.width, top: 0 })).toBeLessThan(1);
      expect(await regionDifference(plain, labelled, { ...corner, left: 0, top: 0 })).toBeLessThan(1);
      expect(await regionDifference(plain, labelled, { ...corner, left: width - box.width, top: height - box.height })).toBeLessThan(1);
    }
  });

  it('keeps an unstamped size once made, serves it again unchanged, and deletes it with the staging', async () => {
    const job = await completedJob(t, enterprise, 2400, 1600);
    const stagedId = (job.stagedImageUrl ?? '').split('/').pop() ?? '';
    const kept = () => t.container.storage.get(renditionKey(stagedId, 'hd'));
    expect(await kept()).toBeNull();
    const first = await download(enterprise, job, 'size=hd');
    expect(first.rawPayload.equals((await kept()) ?? Buffer.alloc(0))).toBe(true);
    expect((await download(enterprise, job, 'size=hd')).rawPayload.equals(first.rawPayload)).toBe(true);
    // A stamped download is drawn on the full image, never kept.
    expect((await download(enterprise, job, 'size=4k&label=1')).statusCode).toBe(200);
    expect(await t.container.storage.get(renditionKey(stagedId, '4k'))).toBeNull();
    expect((await api(t, enterprise).call('DELETE', `/api/jobs/${job.id}`)).statusCode).toBe(204);
    expect(await kept()).toBeNull();
  });

  it('never labels the stored staging or the original', async () => {
    const a = api(t, enterprise);
    const before = [(await a.call('GET', small.originalImageUrl)).rawPayload, (await a.call('GET', small.stagedImageUrl as string)).rawPayload];
    expect((await download(enterprise, small, 'size=hd&label=1')).statusCode).toBe(200);
    expect((await a.call('GET', small.originalImageUrl)).rawPayload.equals(before[0]!)).toBe(true);
    expect((await a.call('GET', small.stagedImageUrl as string)).rawPayload.equals(before[1]!)).toBe(true);
  });

  it("another user's job is a 404, an unfinished one a 409, and a malformed query a 400", async () => {
    expect((await download(free, big, 'size=hd')).statusCode).toBe(404);
    expect((await download(free, big, 'size=4k')).statusCode).toBe(404);
    expect((await api(t, free).call('GET', '/api/jobs/not-a-uuid/download?size=hd')).statusCode).toBe(404);
    const a = api(t, free);
    const pending = await a.stage(await a.upload());
    expect((await download(free, pending, 'size=hd')).json()).toMatchObject({ error: 'JOB_NOT_COMPLETED' });
    expect((await download(free, pending, 'size=hd')).statusCode).toBe(409);
    for (const query of ['', 'size=8k', 'size=HD', 'size=hd&label=2', 'size=hd&label=yes', 'size=hd&extra=1', 'size=hd&size=4k']) {
      const res = await download(enterprise, big, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error).toBe('BAD_REQUEST');
    }
    expect((await t.app.inject({ method: 'GET', url: `/api/jobs/${big.id}/download?size=hd` })).statusCode).toBe(401);
  });
});
