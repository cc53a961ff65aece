import { shareResponseSchema, shareStateResponseSchema, type Job } from '@roomstager/contracts';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shares } from '../../src/db/schema.ts';
import { hashToken } from '../../src/domain/auth/auth.service.ts';
import { createSignedInUser, createTestApp, databaseKinds, type TestApp } from '../helpers.ts';
import { api, type Client } from '../pipeline/pipeline-helpers.ts';
import { completedJob } from './publishing-helpers.ts';

/** Issue 16: public share links of a staging, revocable, gone with the job, nothing of anyone else's. */
describe.each(databaseKinds)('share links on %s', (kind) => {
  let t: TestApp;
  let owner: Client;
  let other: Client;
  let job: Job;

  beforeAll(async () => {
    t = await createTestApp({ kind, env: { UPLOAD_RATE_LIMIT: '1000', JOB_RATE_LIMIT: '1000' } });
    owner = await createSignedInUser(t, { name: 'Olivia Owner', credits: 10 });
    other = await createSignedInUser(t, { name: 'Oscar Other', credits: 10 });
    job = await completedJob(t, owner, 2400, 1600);
    await api(t, owner).call('PATCH', `/api/jobs/${job.id}`, { userLabel: '12 Private Lane, Springfield' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  /** A visitor without any cookie. */
  const visit = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  const share = async (who: Client, jobId: string) => {
    const res = await api(t, who).call('POST', `/api/jobs/${jobId}/share`);
    expect(res.statusCode, res.body).toBe(201);
    return shareResponseSchema.parse(res.json());
  };
  const shareRows = (jobId: string) => t.container.database.db.select().from(shares).where(eq(shares.jobId, jobId));

  it('creates a long random link whose token is stored only as its hash', async () => {
    const created = await share(owner, job.id);
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created.url).toBe(`http://localhost:3000/s/${created.token}`);
    const rows = await shareRows(job.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).toBe(hashToken(created.token));
    expect(JSON.stringify(rows)).not.toContain(created.token);
  });

  it('opens the page to anyone, without a session: slider, the words, the original, a QR code, noindex, its own preview; no personal data', async () => {
    const { token } = await share(owner, job.id);
    const res = await visit(`/s/${token}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['x-robots-tag']).toContain('noindex');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    const html = res.body;
    expect(html).toContain('<meta name="robots" content="noindex, nofollow, noarchive">');
    expect(html).toContain('<h1>Virtually staged</h1>');
    expect(html).toContain(`<meta property="og:image" content="http://localhost:3000/s/${token}/staged.jpg">`);
    expect(html).toContain('<meta property="og:image:width" content="1920">');
    expect(html).toContain(`href="/s/${token}/original.jpg" download>Download the unaltered original</a>`);
    expect(html).toContain(`src="/s/${token}/qr.png"`);
    expect(html).toContain('type="range"');
    expect(html).toContain('aria-label="Compare the original photo (left) with the virtually staged one (right)"');
    // No inline script or style element: the CSP allows neither.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(html).not.toContain('<style');
    for (const personal of ['Olivia', 'Owner', 'olivia', '12 Private Lane', owner.id, job.id, job.originalImageUrl]) expect(html).not.toContain(personal);

    const [css, js] = [...html.matchAll(/(?:href|src)="(\/s\/assets\/[^"]+)"/g)].map((m) => m[1] as string);
    for (const asset of [css, js]) {
      const file = await visit(asset as string);
      expect(file.statusCode).toBe(200);
      expect(file.headers['cache-control']).toContain('immutable');
    }
  });

  it('serves the unaltered original, the staged photo at HD and the QR code without a session, revalidated each time', async () => {
    const { token, url } = await share(owner, job.id);
    const original = await visit(`/s/${token}/original.jpg`);
    expect(original.statusCode).toBe(200);
    expect(original.headers['content-type']).toBe('image/jpeg');
    expect(original.headers['x-robots-tag']).toContain('noindex');
    expect(original.headers['cache-control']).toBe('no-cache');
    expect(original.headers['content-disposition']).toMatch(/^inline; filename="original-\d{13}\.jpg"$/);
    const own = await api(t, owner).call('GET', job.originalImageUrl);
    expect(original.rawPayload.equals(own.rawPayload)).toBe(true);
    expect((await visit(`/s/${token}/original.jpg`, { 'if-none-match': original.headers.etag as string })).statusCode).toBe(304);

    const staged = await visit(`/s/${token}/staged.jpg`);
    expect(staged.statusCode).toBe(200);
    expect((await sharp(staged.rawPayload).metadata()).width).toBe(1920);

    const qr = await visit(`/s/${token}/qr.png`);
    expect(qr.statusCode).toBe(200);
    expect(qr.headers['content-type']).toBe('image/png');
    expect((await sharp(qr.rawPayload).metadata()).width).toBe(1200);
    expect(url).toContain(token);
  });

  it('a new link replaces the earlier one; revoking ends it at once; only the owner can revoke', async () => {
    const first = await share(owner, job.id);
    const second = await share(owner, job.id);
    expect((await visit(`/s/${first.token}`)).statusCode).toBe(404);
    expect((await visit(`/s/${second.token}`)).statusCode).toBe(200);
    expect(await shareRows(job.id)).toHaveLength(1);

    // Another user's revoke of it is a 404 and changes nothing.
    const foreign = await api(t, other).call('DELETE', `/api/shares/${second.token}`);
    expect(foreign.statusCode).toBe(404);
    expect((await visit(`/s/${second.token}`)).statusCode).toBe(200);

    const revoked = await api(t, owner).call('DELETE', `/api/shares/${second.token}`);
    expect(revoked.statusCode).toBe(204);
    for (const path of ['', '/original.jpg', '/staged.jpg', '/qr.png']) expect((await visit(`/s/${second.token}${path}`)).statusCode, path).toBe(404);
    expect((await api(t, owner).call('DELETE', `/api/shares/${second.token}`)).statusCode).toBe(404);
    expect(await shareRows(job.id)).toHaveLength(0);
  });

  it("tells the owner whether the job has a link and turns it off by the job, the token being long gone; others' calls are 404s", async () => {
    const state = async (who: Client, jobId: string) => api(t, who).call('GET', `/api/jobs/${jobId}/share`);
    expect(shareStateResponseSchema.parse((await state(owner, job.id)).json())).toEqual({ createdAt: null });
    const { token } = await share(owner, job.id);
    const { createdAt } = shareStateResponseSchema.parse((await state(owner, job.id)).json());
    expect(Date.now() - Date.parse(createdAt ?? '')).toBeLessThan(60_000);

    expect((await state(other, job.id)).statusCode).toBe(404);
    expect((await api(t, other).call('DELETE', `/api/jobs/${job.id}/share`)).statusCode).toBe(404);
    expect((await visit(`/s/${token}`)).statusCode).toBe(200);

    expect((await api(t, owner).call('DELETE', `/api/jobs/${job.id}/share`)).statusCode).toBe(204);
    expect((await visit(`/s/${token}`)).statusCode).toBe(404);
    expect(shareStateResponseSchema.parse((await state(owner, job.id)).json())).toEqual({ createdAt: null });
    expect((await api(t, owner).call('DELETE', `/api/jobs/${job.id}/share`)).statusCode).toBe(404);
    expect((await api(t, owner).call('GET', '/api/jobs/not-a-uuid/share')).statusCode).toBe(404);
  });

  it('stops working when the job is deleted', async () => {
    const doomed = await completedJob(t, owner, 800, 600);
    const { token } = await share(owner, doomed.id);
    expect((await visit(`/s/${token}/original.jpg`)).statusCode).toBe(200);
    expect((await api(t, owner).call('DELETE', `/api/jobs/${doomed.id}`)).statusCode).toBe(204);
    for (const path of ['', '/original.jpg', '/staged.jpg', '/qr.png']) expect((await visit(`/s/${token}${path}`)).statusCode, path).toBe(404);
    expect(await shareRows(doomed.id)).toHaveLength(0);
  });

  it("another user's job is a 404, an unfinished one a 409; a malformed or unknown token a 404, a malformed revoke a 400; nothing changes", async () => {
    const before = await t.container.database.db.select().from(shares);
    expect((await api(t, other).call('POST', `/api/jobs/${job.id}/share`)).statusCode).toBe(404);
    expect((await api(t, other).call('POST', '/api/jobs/not-a-uuid/share')).statusCode).toBe(404);
    const a = api(t, other);
    const pending = await a.stage(await a.upload());
    const unfinished = await a.call('POST', `/api/jobs/${pending.id}/share`);
    expect(unfinished.statusCode).toBe(409);
    expect(unfinished.json().error).toBe('JOB_NOT_COMPLETED');
    for (const token of ['short', 'x'.repeat(43).replace(/x$/, '!'), 'A'.repeat(44)]) {
      const res = await api(t, owner).call('DELETE', `/api/shares/${encodeURIComponent(token)}`);
      expect(res.statusCode, token).toBe(400);
      expect(res.json().error).toBe('BAD_REQUEST');
    }
    for (const token of ['short', 'A'.repeat(43), '../api/jobs']) expect((await visit(`/s/${encodeURIComponent(token)}`)).statusCode, token).toBe(404);
    // Without a session, or from another site, the owner's calls are refused.
    expect((await t.app.inject({ method: 'POST', url: `/api/jobs/${job.id}/share`, headers: { origin: 'http://localhost:3000' } })).statusCode).toBe(401);
    const crossSite = await t.app.inject({ method: 'POST', url: `/api/jobs/${job.id}/share`, headers: { cookie: owner.cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.statusCode).toBe(403);
    expect(await t.container.database.db.select().from(shares)).toEqual(before);
  });
});
