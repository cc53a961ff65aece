import type { FastifyReply } from 'fastify';
import { escapeHtml } from '../html.ts';

/**
 * The HTML page of a development stand-in (sign-in, PayPal approval): no inline script or style,
 * so it works under the app's CSP; its stylesheet is served by the stand-in at `${basePath}/style.css`.
 */
export function sendDevPage(reply: FastifyReply, options: { title: string; basePath: string; body: string }) {
  const html = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="robots" content="noindex">
  <title>${escapeHtml(options.title)} · RoomStager</title>
  <link rel="icon" href="/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="${escapeHtml(`${options.basePath}/style.css`)}">
</head>
<body>
<main>
  ${options.body}
</main>
</body>
</html>
`;
  return reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(html);
}
