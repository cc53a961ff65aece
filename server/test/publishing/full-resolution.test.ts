import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StageInput, StageOutput, StagingEngine } from '../../src/staging/engine.ts';
import { LocalStagingEngine, stageToJpeg } from '../../src/staging/local/index.ts';
import { LockedEngine } from '../../src/staging/lock/engine.ts';
import { createSignedInUser, createTestApp, type TestApp } from '../helpers.ts';
import { api, workerFor, type Client } from '../pipeline/pipeline-helpers.ts';

const fixture = (name: string) => readFile(fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url)));

/** A generative provider answering at about 1 MP, as the image models do, whatever the photo's size. */
class OneMegapixelProvider implements StagingEngine {
  readonly name = 'one-megapixel';
  constructor(private readonly answer: Buffer) {}
  async stage(_input: StageInput): Promise<StageOutput> {
    return { image: await sharp(this.answer).resize({ width: 1216 }).jpeg().toBuffer(), contentType: 'image/jpeg' };
  }
}

/**
 * Issue 16: 4K downloads are made from the stored staging, so it must keep the original photo's
 * full size whichever engine made it: the local engine composites onto the full-size photo, and
 * a generative answer (about 1 MP) comes back through the structure lock as the full-size original
 * with only what the model added.
 */
describe('the stored staging has the original photo\'s full size', () => {
  let t: TestApp;
  let user: Client;
  let photo: Buffer;
  beforeAll(async () => {
    t = await createTestApp({ env: { UPLOAD_RATE_LIMIT: '1000', JOB_RATE_LIMIT: '1000' } });
    user = await createSignedInUser(t, { name: 'full-size', credits: 10 });
    // A 12 MP camera photo of an empty room (the fixture enlarged to a phone camera's size).
    photo = await sharp(await fixture('generative/empty-room-pruna-before.jpg')).resize(4032, 2304, { fit: 'fill' }).jpeg({ quality: 90 }).toBuffer();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const stagedSize = async (engine: StagingEngine) => {
    const a = api(t, user);
    const job = await a.stage(await a.upload(photo));
    expect(await workerFor(t, engine, { engineTimeoutMs: 120_000 }).runOnce()).toBe(true);
    const done = await a.job(job.id);
    expect(done.status, done.errorMessage ?? '').toBe('completed');
    const meta = await sharp((await a.call('GET', done.stagedImageUrl as string)).rawPayload).metadata();
    return [meta.width, meta.height];
  };

  it('with the local engine', { timeout: 240_000 }, async () => {
    expect(await stagedSize(new LocalStagingEngine())).toEqual([4032, 2304]);
  });

  it('with a generative engine answering at 1 MP, through the structure lock', { timeout: 120_000 }, async () => {
    const furnished = await stageToJpeg(photo, 'modern', 'living_room', new AbortController().signal);
    expect(await stagedSize(new LockedEngine(new OneMegapixelProvider(furnished)))).toEqual([4032, 2304]);
  });
});
