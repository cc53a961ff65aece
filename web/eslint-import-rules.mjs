// The web app's import rules (docs/architecture.md, "Import rules"), as an ESLint plugin of two
// rules. They judge resolved files, not specifier strings, so a folder's depth cannot hide a
// crossing; the web app's imports are all relative with their extension, which makes resolving
// them a path join.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const SRC = path.join(import.meta.dirname, 'src');

/** 'app' (the shell and its entry points), 'feature:<name>', 'shared' (components, lib), or null. */
function layerOf(file) {
  const rel = path.relative(SRC, file).split(path.sep);
  if (rel[0] === 'app' || rel[0] === 'main.tsx' || rel[0] === 'entry-server.tsx') return 'app';
  if (rel[0] === 'features' && rel.length > 2) return `feature:${rel[1]}`;
  if (rel[0] === 'components' || rel[0] === 'lib') return 'shared';
  return null;
}

/** Why `from` may not import `to`, or null when it may. */
function crossing(from, to) {
  const a = layerOf(from);
  const b = layerOf(to);
  if (a === null || b === null || a === b) return null;
  if (b === 'app') return 'nothing imports the app shell (web/src/app); it imports the screens';
  if (a === 'shared' && b.startsWith('feature:')) return 'shared code (components, lib) does not import a feature; move what both need into lib/ or components/';
  if (a.startsWith('feature:') && b.startsWith('feature:')) return 'a feature does not import another feature; move what both need into lib/ or components/';
  return null;
}

const resolve = (file, specifier) => (specifier.startsWith('.') ? path.resolve(path.dirname(file), specifier) : null);

/** Static imports and re-exports (types included) and dynamic `import('...')`, read from the text. */
const IMPORT = /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g;
const edgeCache = new Map();

function importsOf(file) {
  let edges = edgeCache.get(file);
  if (edges) return edges;
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // Not a source file (a stylesheet, an asset) or gone: it imports nothing.
  }
  edges = [...text.matchAll(IMPORT)]
    .map((m) => resolve(file, m[1] ?? m[2]))
    .filter((target) => target !== null && /\.tsx?$/.test(target) && target.startsWith(SRC));
  edgeCache.set(file, edges);
  return edges;
}

/** A path of imports from `start` back to `file`, or null. */
function pathBack(start, file) {
  const seen = new Set();
  const walk = (node, trail) => {
    if (node === file) return trail;
    if (seen.has(node)) return null;
    seen.add(node);
    for (const next of importsOf(node)) {
      const found = walk(next, [...trail, next]);
      if (found) return found;
    }
    return null;
  };
  return walk(start, [start]);
}

/** Calls `check(node, target)` for every relative import of the file being linted. */
function eachImport(context, check) {
  const file = context.filename;
  const visit = (node) => {
    const source = node.source;
    if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
    const target = resolve(file, source.value);
    if (target) check(node, target);
  };
  return { ImportDeclaration: visit, ExportNamedDeclaration: visit, ExportAllDeclaration: visit, ImportExpression: visit };
}

export default {
  rules: {
    'import-direction': {
      meta: { type: 'problem', docs: { description: 'The app shell imports features; features import shared code; never the other way, nor sideways.' }, schema: [] },
      create(context) {
        return eachImport(context, (node, target) => {
          const why = crossing(context.filename, target);
          if (why) context.report({ node, message: `Import of ${path.relative(SRC, target)}: ${why}.` });
        });
      },
    },
    'no-import-cycle': {
      meta: { type: 'problem', docs: { description: 'No module imports itself through others (static, type-only or dynamic imports).' }, schema: [] },
      create(context) {
        const file = context.filename;
        if (!file.startsWith(SRC)) return {};
        return eachImport(context, (node, target) => {
          const cycle = pathBack(target, file);
          if (cycle) context.report({ node, message: `Import cycle: ${[file, ...cycle].map((f) => path.relative(SRC, f)).join(' -> ')}.` });
        });
      },
    },
  },
};
