import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createContainer, describeParts } from '../../src/container.ts';
import { imageKey, thumbnailKey } from '../../src/storage/keys.ts';
import { LocalObjectStorage } from '../../src/storage/local.storage.ts';
import type { ObjectStorage } from '../../src/storage/object-storage.ts';
import { S3ObjectStorage } from '../../src/storage/s3.storage.ts';
import { createSignedInUser, createTestApp, openTestDatabase, testConfig } from '../helpers.ts';
import { makeJpeg } from './fakes.ts';
import { api } from './pipeline-helpers.ts';

const ID = '3f2a9c1e-0b6d-4e8f-9a7b-1c2d3e4f5a6b';

/** What every storage adapter must do. */
function behavesAsStorage(name: string, open: () => ObjectStorage) {
  describe(`${name}: the ObjectStorage contract`, () => {
    it('puts, gets, streams, checks and deletes', async () => {
      const storage = open();
      const key = imageKey(ID);
      expect(await storage.exists(key)).toBe(false);
      expect(await storage.get(key)).toBeNull();
      expect(await storage.stream(key)).toBeNull();
      const body = Buffer.from('first version');
      await storage.put(key, body, 'image/jpeg');
      expect(await storage.exists(key)).toBe(true);
      expect(await storage.get(key)).toEqual(body);
      await storage.put(key, Buffer.from('second'), 'image/jpeg');
      const chunks: Buffer[] = [];
      for await (const c of (await storage.stream(key)) ?? []) chunks.push(c as Buffer);
      expect(Buffer.concat(chunks).toString()).toBe('second');
      await storage.delete(key);
      expect(await storage.exists(key)).toBe(false);
      await storage.delete(key); // missing is fine
    });

    it('refuses keys that are not derived from ids', async () => {
      const storage = open();
      for (const key of ['../../etc/passwd', '/etc/passwd', 'images/../../x', 'images//x', 'IMAGES/x', 'a\\b', '', 'images/x%2f..']) {
        await expect(storage.put(key, Buffer.from('x'), 'text/plain')).rejects.toThrow(/unsafe storage key/);
        await expect(storage.get(key)).rejects.toThrow(/unsafe storage key/);
      }
    });
  });
}

describe('storage keys', () => {
  it('derive from image ids only', () => {
    expect(imageKey(ID)).toBe(`images/3f/${ID}.jpg`);
    expect(thumbnailKey(ID)).toBe(`thumbnails/3f/${ID}.webp`);
    expect(() => imageKey('../etc/passwd')).toThrow();
    expect(() => imageKey(ID.toUpperCase())).toThrow();
  });
});

describe('local disk storage', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'roomstager-storage-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });
  behavesAsStorage('local', () => new LocalObjectStorage(root));

  it('writes atomically (no temporary file left) and only under its root', async () => {
    const storage = new LocalObjectStorage(path.join(root, 'images'));
    await storage.put(imageKey(ID), Buffer.alloc(100_000, 7), 'image/jpeg');
    const files = await readdir(path.join(root, 'images'), { recursive: true });
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect((await stat(path.join(root, 'images', imageKey(ID)))).size).toBe(100_000);
    expect((await stat(path.join(root, 'images', imageKey(ID)))).mode & 0o077).toBe(0);
  });
});

describe('S3 storage against s3rver (real HTTP)', () => {
  let server: S3rver;
  let dir: string;
  let endpoint: string;
  const bucket = 'roomstager-test';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'roomstager-s3rver-'));
    server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: bucket }] });
    const { port } = await server.run();
    endpoint = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const s3 = () =>
    new S3ObjectStorage({ bucket, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', endpoint, forcePathStyle: true });
  behavesAsStorage('s3', s3);

  it('serves the whole pipeline with STORAGE=s3', async () => {
    const env = {
      STORAGE: 's3',
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    };
    const t = await createTestApp({ env });
    try {
      expect(t.container.storage).toBeInstanceOf(S3ObjectStorage);
      expect(t.container.storage.description).toContain(endpoint);
      const user = await createSignedInUser(t);
      const a = api(t, user);
      const url = await a.upload(await makeJpeg(800, 600));
      const res = await a.call('GET', url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
      const thumb = await a.call('GET', `${url}/thumbnail`);
      expect(thumb.headers['content-type']).toBe('image/webp');
      const id = url.split('/').pop() as string;
      expect(await s3().exists(thumbnailKey(id))).toBe(true);
    } finally {
      await t.close();
    }
  });
});

describe('storage configuration', () => {
  it('names every missing S3 setting', () => {
    expect(() => loadConfig({ STORAGE: 's3' })).toThrow(/S3_BUCKET[\s\S]*S3_REGION[\s\S]*S3_ACCESS_KEY_ID[\s\S]*S3_SECRET_ACCESS_KEY/);
    expect(() => loadConfig({ STORAGE: 's3', S3_BUCKET: 'b', S3_REGION: 'r', S3_ACCESS_KEY_ID: 'k' })).toThrow(/STORAGE=s3 needs S3_SECRET_ACCESS_KEY/);
    expect(() => loadConfig({ STORAGE: 'ftp' })).toThrow(/STORAGE/);
  });

  it('keeps test engines out of production and describes storage and engine at start', async () => {
    expect(() => loadConfig({ NODE_ENV: 'production', GOOGLE_CLIENT_ID: 'i', GOOGLE_CLIENT_SECRET: 's', STAGING_ENGINE: 'fail' })).toThrow(
      /STAGING_ENGINE: fail is a test engine/,
    );
    expect(() => loadConfig({ STAGING_ENGINE: 'midjourney' })).toThrow(/STAGING_ENGINE/);
    expect(loadConfig({}).RUN_WORKER).toBe(true);
    expect(loadConfig({ RUN_WORKER: 'false', DATABASE_URL: 'postgres://db/x' }).RUN_WORKER).toBe(false);
    expect(() => loadConfig({ RUN_WORKER: 'false' })).toThrow(/RUN_WORKER=false needs DATABASE_URL/);
    expect(() => loadConfig({ WORKER_CONCURRENCY: '0' })).toThrow(/WORKER_CONCURRENCY/);
    const database = await openTestDatabase();
    const container = await createContainer(testConfig({ STAGING_ENGINE: 'fail', DATA_DIR: '/tmp/rs-never-written' }), { database });
    try {
      expect(container.engine.name).toBe('fail');
      const parts = Object.fromEntries(describeParts(container));
      expect(parts.storage).toBe(`local disk in ${path.resolve('/tmp/rs-never-written/images')}`);
      expect(parts.engine).toContain('fail');
    } finally {
      await database.close();
    }
  });
});
