// Shared by the bench scripts: free ports, autocannon runs, medians.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export { freePort } from '../e2e/support/product.ts';

export interface LoadResult {
  rps: number;
  p99: number;
  non2xx: number;
}

/** autocannon in its own process, so the load generator does not share the server's event loop. */
export async function load(
  url: string,
  options: { connections: number; seconds: number; headers?: Record<string, string>; method?: 'GET' | 'POST'; body?: string },
): Promise<LoadResult> {
  const bin = path.join(repoRoot, 'node_modules/.bin/autocannon');
  const args = ['-j', '-c', String(options.connections), '-d', String(options.seconds)];
  if (options.method) args.push('-m', options.method);
  if (options.body !== undefined) args.push('-b', options.body);
  for (const [k, v] of Object.entries(options.headers ?? {})) args.push('-H', `${k}=${v}`);
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(bin, [...args, url], { stdio: ['ignore', 'pipe', 'ignore'] });
    let data = '';
    child.stdout.on('data', (d: Buffer) => (data += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(data) : reject(new Error(`autocannon exited ${code}`))));
  });
  const json = JSON.parse(out) as { requests: { average: number }; latency: { p99: number }; non2xx: number };
  return { rps: Math.round(json.requests.average), p99: json.latency.p99, non2xx: json.non2xx };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
