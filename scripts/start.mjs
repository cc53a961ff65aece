// `npm start`: builds the web app when its sources are newer than the build, then serves everything.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const builtAt = mtime(path.join(root, 'web/dist/index.html'));
const sources = ['web/src', 'web/index.html', 'web/assets', 'web/public/favicon.svg', 'web/vite.config.ts', 'contracts/src'];

function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function newest(entry) {
  const stat = statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((max, name) => Math.max(max, newest(path.join(entry, name))), stat.mtimeMs);
}

const stale = builtAt === 0 || sources.some((s) => newest(path.join(root, s)) > builtAt);
if (stale) {
  console.log('Building the web app...');
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// glibc gives every thread that allocates its own malloc arena; libvips' and the engine's threads
// then keep hundreds of MB of freed image buffers (see docs/decisions/0013-malloc-arenas.md).
const env = { MALLOC_ARENA_MAX: '2', ...process.env };
const server = spawn(process.execPath, ['--import', 'tsx', 'server/src/api/server.ts'], { cwd: root, stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
