import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { EngineLogger } from '../../../src/staging/engine.ts';

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type Responder = (req: Recorded, res: ServerResponse) => void | Promise<void>;

/** A provider fake on 127.0.0.1: answers each request with the next responder (the last one repeats). */
export async function startFake(responders: Responder[]) {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded: Recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(recorded);
      const responder = responders[Math.min(requests.length - 1, responders.length - 1)]!;
      Promise.resolve(responder(recorded, res)).catch((err: unknown) => {
        res.statusCode = 500;
        res.end(String(err));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Responder {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
}

/** Answers after `ms` (a slow provider); the client's timeout should give up first. */
export function slow(ms: number, then: Responder): Responder {
  return (req, res) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        if (!res.destroyed) void then(req, res);
        resolve();
      }, ms);
      res.on('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
}

/** A room photo stand-in: a landscape JPEG. */
export function photo(width = 800, height = 600): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 180, g: 170, b: 150 } } }).jpeg().toBuffer();
}

/** What a model answers: an image of another shape. */
export function modelImage(width = 1536, height = 1024, format: 'png' | 'jpeg' = 'png'): Promise<Buffer> {
  const img = sharp({ create: { width, height, channels: 3, background: { r: 90, g: 60, b: 40 } } });
  return format === 'png' ? img.png().toBuffer() : img.jpeg().toBuffer();
}

export const KEY = 'sk-test-SECRET-KEY-0123456789';

/** A logger keeping every warning it is given. */
export function recordingLogger(): EngineLogger & { entries: Array<{ obj: Record<string, unknown>; msg: string }> } {
  const entries: Array<{ obj: Record<string, unknown>; msg: string }> = [];
  return { entries, warn: (obj, msg) => entries.push({ obj: { ...obj }, msg }) };
}

/** Exactly one retry warning, with the provider, the try, its status and the wait; no key, no image. */
export function expectOneRetryWarning(log: ReturnType<typeof recordingLogger>, expected: { provider: string; status: number; delayMs?: number }): void {
  expect(log.entries).toHaveLength(1);
  const [{ obj, msg }] = log.entries as [{ obj: Record<string, unknown>; msg: string }];
  expect(msg).toBe('remote engine: retrying');
  expect(obj).toMatchObject({ provider: expected.provider, attempt: 1, status: expected.status, delayMs: expected.delayMs ?? expect.any(Number) });
  const logged = JSON.stringify(log.entries);
  expect(logged).not.toContain(KEY);
  // A photo in base64 is tens of kilobytes: the warning carries only the provider's (capped) words.
  expect(logged.length).toBeLessThan(1_500);
}

/** Fast retries and a short timeout, so the whole suite runs in seconds. */
export const FAST = { apiKey: KEY, timeoutMs: 600, baseDelayMs: 5, maxDelayMs: 2_000 } as const;
