import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ROOM_TYPE_LABELS, sharePath, type RoomType, type Style } from '@roomstager/contracts';
import { escapeHtml } from '../../html.ts';

/** A stylesheet or script of the page, named by its content's hash so it can be cached for good. */
interface PageAsset {
  path: string;
  body: string;
  contentType: string;
}

function asset(file: string, contentType: string): PageAsset {
  const body = readFileSync(new URL(file, import.meta.url), 'utf8');
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  const [name, ext] = file.split('.');
  return { path: `/s/assets/${name}-${hash}.${ext}`, body, contentType };
}

/** The page's files: served by path, never inline, so the CSP needs no exception for the page. */
export const SHARE_PAGE_ASSETS = {
  css: asset('share.css', 'text/css; charset=utf-8'),
  js: asset('share.js', 'text/javascript; charset=utf-8'),
} as const;

export interface Picture {
  url: string;
  width: number;
  height: number;
}

export interface SharePageStaging {
  style: Style;
  roomType: RoomType;
  original: Picture;
  staged: Picture;
}

interface SharePageView {
  publicOrigin: string;
  token: string;
  /** At least one: a share without a staging to show is a 404 before anything renders. */
  stagings: [SharePageStaging, ...SharePageStaging[]];
}

const roomName = (roomType: RoomType) => ROOM_TYPE_LABELS[roomType];

function stagingHtml(s: SharePageStaging): string {
  const room = roomName(s.roomType);
  return `<section class="staging">
<figure class="compare" style="--pos:50%;aspect-ratio:${s.staged.width}/${s.staged.height}">
<img src="${escapeHtml(s.staged.url)}" width="${s.staged.width}" height="${s.staged.height}" alt="${escapeHtml(`${room}, virtually staged in the ${s.style} style`)}">
<img class="before" src="${escapeHtml(s.original.url)}" width="${s.original.width}" height="${s.original.height}" alt="${escapeHtml(`${room}, the unaltered original photo`)}">
<span class="tag tag-before" aria-hidden="true">Original</span>
<span class="tag tag-after" aria-hidden="true">Virtually staged</span>
<span class="handle" aria-hidden="true"></span>
<input type="range" min="0" max="100" value="50" step="1" data-compare aria-label="Compare the original photo (left) with the virtually staged one (right)">
</figure>
<p class="caption">${escapeHtml(`${room}, ${s.style} style`)}</p>
<div class="actions">
<a class="button" href="${escapeHtml(s.original.url)}" download>Download the unaltered original</a>
</div>
</section>`;
}

/**
 * The public share page: the stagings' before/after, the words "Virtually staged", links to the
 * unaltered originals and a QR code of the page. It names no person (no owner, no label the
 * owner typed: it might hold an address), is kept out of search engines, and its social preview
 * is the first staged photo.
 */
export function renderSharePage(view: SharePageView): string {
  const page = `${view.publicOrigin}${sharePath(view.token)}`;
  const [first] = view.stagings;
  const title = `Virtually staged ${roomName(first.roomType).toLowerCase()}`;
  const description = 'Compare the virtually staged photo with the unaltered original, and download the original.';
  const qr = `${sharePath(view.token)}/qr.png`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow, noarchive">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<title>${escapeHtml(title)} | RoomStager</title>
<meta name="description" content="${escapeHtml(description)}">
<meta property="og:type" content="website">
<meta property="og:site_name" content="RoomStager">
<meta property="og:title" content="${escapeHtml(title)}">
<meta property="og:description" content="${escapeHtml(description)}">
<meta property="og:url" content="${escapeHtml(page)}">
<meta property="og:image" content="${escapeHtml(view.publicOrigin + first.staged.url)}">
<meta property="og:image:type" content="image/jpeg">
<meta property="og:image:width" content="${first.staged.width}">
<meta property="og:image:height" content="${first.staged.height}">
<meta property="og:image:alt" content="${escapeHtml(title)}">
<meta name="twitter:card" content="summary_large_image">
<link rel="stylesheet" href="${SHARE_PAGE_ASSETS.css.path}">
<script type="module" src="${SHARE_PAGE_ASSETS.js.path}"></script>
</head>
<body>
<header class="bar"><div class="bar-inner"><a class="brand" href="/">RoomStager</a></div></header>
<main>
<h1>Virtually staged</h1>
<p class="lede">Furniture and decor were added digitally to a photo of the empty room; the room itself is as photographed. Drag the slider to compare with the unaltered original.</p>
${view.stagings.map(stagingHtml).join('\n')}
<section class="qr" aria-labelledby="qr-heading">
<img src="${qr}" width="144" height="144" alt="QR code that opens this page">
<div>
<h2 id="qr-heading">QR code of this page</h2>
<p>Print it on a flyer or a sign: scanning it opens this page with the original photo.</p>
<a class="button button-quiet" href="${qr}" download="roomstager-qr-code.png">Download QR code</a>
</div>
</section>
</main>
<footer class="foot">Virtual staging by RoomStager.</footer>
</body>
</html>
`;
}
