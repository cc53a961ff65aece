import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../src/db/schema.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { approvedOrder, call, capture, newBuyer, type Buyer } from './payment-helpers.ts';

/** Jobs of Professional and Enterprise buyers are claimed first. */
describe('job priority follows the buyer tier', () => {
  let t: TestApp;
  let photo: string;
  beforeAll(async () => {
    // Test apps run no worker: the jobs stay pending so their priority can be read.
    t = await createTestApp();
    photo = (await sharp({ create: { width: 640, height: 480, channels: 3, background: '#d8d2c8' } }).jpeg().toBuffer()).toString('base64');
  });
  afterAll(async () => {
    await t.close();
  });

  async function priorityOfNewJob(buyer: Buyer): Promise<number> {
    const upload = await call(t.app, buyer, 'POST', '/api/upload', { imageData: photo, filename: 'room.jpg' });
    expect(upload.statusCode).toBe(201);
    const created = await call(t.app, buyer, 'POST', '/api/jobs', { originalImageUrl: upload.json().imageUrl, style: 'modern', userLabel: null });
    expect(created.statusCode).toBe(201);
    const [row] = await t.container.database.db.select({ priority: jobs.priority }).from(jobs).where(eq(jobs.id, created.json().id));
    return row?.priority ?? -1;
  }

  it('is 0 for a free-trial user, 1 after Professional, 2 after Enterprise', async () => {
    const buyer = await newBuyer(t.app, 'tiered');
    expect(await priorityOfNewJob(buyer)).toBe(0);
    expect((await capture(t.app, buyer, await approvedOrder(t, buyer, 'professional'))).statusCode).toBe(200);
    expect(await priorityOfNewJob(buyer)).toBe(1);
    expect((await capture(t.app, buyer, await approvedOrder(t, buyer, 'enterprise'))).statusCode).toBe(200);
    expect(await priorityOfNewJob(buyer)).toBe(2);
  });
});
