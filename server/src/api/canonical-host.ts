import type { FastifyInstance } from 'fastify';
import { isPublicApiPath } from './routes/public-api.routes.ts';

const isLoopbackName = (hostname: string) => hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || /^127(?:\.\d{1,3}){3}$/.test(hostname);

/**
 * A page opened at another loopback name than the configured one (127.0.0.1 for localhost, or the
 * reverse) is sent to the configured origin first: its cookies and the sign-in's redirect URI
 * belong to that name, and sign-in from the other one failed with "Authentication failed". Only
 * loopback aliases are redirected, and never the key-authenticated /api/v1; what else reaches the server is the proxy's business.
 */
export function registerCanonicalHost(app: FastifyInstance, publicOrigin: string): void {
  const configured = new URL(publicOrigin);
  if (!isLoopbackName(configured.hostname)) return;
  app.addHook('onRequest', async (req, reply) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !req.url.startsWith('/')) return;
    if (req.hostname === configured.hostname || !isLoopbackName(req.hostname)) return;
    // The public API reads no cookie, and a client following the redirect drops its Authorization header.
    if (isPublicApiPath(req.url.split('?')[0] ?? '')) return;
    // Concatenated, never resolved: a path such as //evil.example must stay a path on this origin.
    return reply.redirect(`${configured.origin}${req.url}`, 308);
  });
}
