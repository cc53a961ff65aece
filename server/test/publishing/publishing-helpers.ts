import type { CreditPackId, Job } from '@roomstager/contracts';
import { expect } from 'vitest';
import { CookieJar } from '../auth/sign-in-helpers.ts';
import type { TestApp } from '../helpers.ts';
import { approvedOrder, capture, type Buyer } from '../payments/payment-helpers.ts';
import { DrawingEngine, makeJpeg } from '../pipeline/fakes.ts';
import { api, workerFor, type Client } from '../pipeline/pipeline-helpers.ts';

/** The same account as a buyer of the payment helpers (its session cookie in a jar). */
function asBuyer(client: Client): Buyer {
  const [name = '', value = ''] = client.cookie.split('=');
  return { id: client.id, jar: new CookieJar().set(name, value) };
}

/** Buys a pack through the PayPal simulator, as the checkout page does. */
export async function buyPack(t: TestApp, client: Client, pack: CreditPackId): Promise<string> {
  const buyer = asBuyer(client);
  const orderId = await approvedOrder(t, buyer, pack);
  expect((await capture(t.app, buyer, orderId)).statusCode).toBe(200);
  return orderId;
}

/** Uploads a width x height photo, stages it with the drawing engine (the result keeps the photo's size), answers the completed job. */
export async function completedJob(t: TestApp, client: Client, width = 1600, height = 1200): Promise<Job> {
  const a = api(t, client);
  const job = await a.stage(await a.upload(await makeJpeg(width, height)));
  expect(await workerFor(t, new DrawingEngine()).runOnce()).toBe(true);
  const done = await a.job(job.id);
  expect(done.status).toBe('completed');
  return done;
}
