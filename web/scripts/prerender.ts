import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { build } from 'vite';

const webDir = fileURLToPath(new URL('..', import.meta.url));
const distDir = path.join(webDir, 'dist');
const ssrDir = path.join(webDir, '.ssr');

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}

interface ServerEntry {
  render(url: string): Promise<string>;
  ROUTE_MODULES: Record<string, string>;
  PAGE_META: Record<string, { title: string; description: string }>;
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The chunks a route needs beyond the entry: preloaded so hydration does not wait on a waterfall. */
function preloads(manifest: Record<string, ManifestChunk>, key: string): string[] {
  const files = new Set<string>();
  const visit = (k: string) => {
    const chunk = manifest[k];
    if (!chunk || chunk.isEntry || files.has(chunk.file)) return;
    files.add(chunk.file);
    chunk.imports?.forEach(visit);
  };
  visit(key);
  return [...files];
}

async function compressAssets(dir: string): Promise<number> {
  let count = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.(js|css|svg|txt|json)$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const data = await readFile(file);
    if (data.length < 1024) continue;
    await writeFile(`${file}.gz`, await promisify(gzip)(data, { level: 9 }));
    await writeFile(`${file}.br`, await promisify(brotliCompress)(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    count++;
  }
  return count;
}

async function main(): Promise<void> {
  await build({
    root: webDir,
    configFile: path.join(webDir, 'vite.config.ts'),
    logLevel: 'warn',
    build: { ssr: 'src/entry-server.tsx', outDir: ssrDir, emptyOutDir: true, manifest: false },
  });
  const entry = (await import(pathToFileURL(path.join(ssrDir, 'entry-server.js')).href)) as ServerEntry;
  const manifest = JSON.parse(await readFile(path.join(distDir, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const template = await readFile(path.join(distDir, 'index.html'), 'utf8');

  // Pages that are not prerendered (signed-in screens, 404) get the empty shell.
  await mkdir(path.join(distDir, '__spa'), { recursive: true });
  await writeFile(path.join(distDir, '__spa/index.html'), template);

  for (const [route, moduleKey] of Object.entries(entry.ROUTE_MODULES)) {
    const meta = entry.PAGE_META[route];
    if (!meta) throw new Error(`No page meta for ${route}`);
    const body = await entry.render(route);
    const head = preloads(manifest, moduleKey)
      .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
      .join('\n    ');
    const html = template
      .replace(/<title>[^<]*<\/title>/, `<title>${escapeAttr(meta.title)}</title>`)
      .replace(/<meta name="description" content="[^"]*"/, `<meta name="description" content="${escapeAttr(meta.description)}"`)
      .replace('<!--head-->', head)
      .replace('<!--app-->', body);
    const outDir = path.join(distDir, route);
    await mkdir(outDir, { recursive: true });
    await writeFile(path.join(outDir, 'index.html'), html);
  }
  await rm(ssrDir, { recursive: true, force: true });
  const compressed = await compressAssets(distDir);
  console.log(`prerendered ${Object.keys(entry.ROUTE_MODULES).length} pages, compressed ${compressed} assets`);
}

await main();
// Vite's build and the rendered app leave timers behind (query cache GC); the work is done.
process.exit(0);
