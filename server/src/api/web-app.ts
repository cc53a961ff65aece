import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isAppRoute } from '@roomstager/contracts';
import { escapeHtml } from '../html.ts';

/** The placeholder the web build writes wherever the contact e-mail goes (see web/index.html). */
const CONTACT_EMAIL_TOKEN = '__CONTACT_EMAIL__';
/** The placeholder of this response's style nonce (`<meta name="csp-nonce">`). */
const CSP_NONCE_TOKEN = '__CSP_NONCE__';


async function collectHtml(dir: string, base = ''): Promise<Map<string, string>> {
  const pages = new Map<string, string>();
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const rel = path.posix.join(base, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'assets' || entry.name === 'img') continue;
      for (const [k, v] of await collectHtml(path.join(dir, entry.name), rel)) pages.set(k, v);
    } else if (entry.name === 'index.html') {
      pages.set(`/${base}`.replace(/\/$/, '') || '/', await readFile(path.join(dir, entry.name), 'utf8'));
    }
  }
  return pages;
}

/**
 * Serves the built single-page app: hashed assets cached for a year, prerendered pages and the
 * SPA shell from memory with runtime settings filled in, a 404 status for paths no screen owns.
 */
export type ShellSender = (reply: FastifyReply, pathname: string) => FastifyReply;

export async function registerWebApp(
  app: FastifyInstance,
  distDir: string,
  contactEmail: string,
): Promise<ShellSender | null> {
  if (!existsSync(path.join(distDir, 'index.html'))) return null;
  const pages = await collectHtml(distDir);
  for (const [route, html] of pages) pages.set(route, html.replaceAll(CONTACT_EMAIL_TOKEN, escapeHtml(contactEmail)));
  const shell = pages.get('/') ?? '';
  const spaShell = pages.get('/__spa') ?? shell;
  pages.delete('/__spa');

  const sendHtml = (reply: FastifyReply, html: string, status = 200) =>
    reply
      .code(status)
      .header('Cache-Control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(html.replace(CSP_NONCE_TOKEN, reply.cspNonce.style));

  await app.register(fastifyStatic, {
    root: distDir,
    index: false,
    redirect: false,
    preCompressed: true,
    allowedPath: (pathname) => !pathname.endsWith('.html'),
    setHeaders(res, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=86400');
    },
  });

  for (const [route, html] of pages) {
    app.get(route, (_req, reply) => sendHtml(reply, html));
  }

  return (reply, pathname) => sendHtml(reply, spaShell, isAppRoute(pathname) ? 200 : 404);
}
