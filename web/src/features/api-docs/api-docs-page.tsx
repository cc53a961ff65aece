import type { ReactNode } from 'react';
import { DocumentLayout } from '../../components/layout/document-layout.tsx';
import { usePageMeta } from '../../lib/use-page-meta.ts';

/** A code example; focusable, so a keyboard can scroll its long lines on a phone. */
function Code({ children }: { children: string }) {
  return (
    <pre tabIndex={0} className="mt-3 overflow-x-auto rounded-lg bg-stone-900 p-4 text-sm leading-relaxed text-stone-100 focus-visible:outline-2 focus-visible:outline-accent-700">
      <code>{children}</code>
    </pre>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-10">
      <h2 id={id} className="text-2xl font-semibold tracking-tight">
        {title}
      </h2>
      <div className="mt-3 space-y-3 text-stone-700">{children}</div>
    </section>
  );
}

const inline = 'rounded bg-stone-100 px-1 py-0.5 font-mono text-[0.9em] text-stone-900';

/** The API reference for developers: each call with a curl example, errors, limits and webhooks. The schema itself is /api/v1/openapi.json. */
export default function ApiDocsPage() {
  usePageMeta('/docs/api');
  return (
    <DocumentLayout title="RoomStager API">
      <p className="text-stone-700">
        Stage photos from your own systems: upload a photo, start a job, then poll it or receive a signed webhook when it is done. The API comes with the
        Enterprise pack. Every job costs one credit, refunded automatically if it fails. The machine-readable description is the{' '}
        <a href="/api/v1/openapi.json" className="font-medium text-accent-700 underline">
          OpenAPI 3.1 document
        </a>
        .
      </p>

      <Section id="keys" title="Keys">
        <p>
          Create a key on the <a href="/api-keys" className="font-medium text-accent-700 underline">API Keys</a> page (user menu). It is shown once: keep it
          in a secret store. Send it with every call as <code className={inline}>Authorization: Bearer rs_live_...</code>; cookies are never used. The
          examples below read two variables:
        </p>
        <Code>{`export ROOMSTAGER_URL=https://your-roomstager-address   # where you sign in
export ROOMSTAGER_KEY=rs_live_...                          # your key`}</Code>
      </Section>

      <Section id="upload" title="1. Upload a photo">
        <p>
          <code className={inline}>POST /api/v1/images</code> takes the JPEG or PNG file (at most 10 MB) as a form, in the field{' '}
          <code className={inline}>file</code>. It answers <code className={inline}>201</code> with the image's <code className={inline}>id</code> and URL.
        </p>
        <Code>{`IMAGE_ID=$(curl -sS -X POST "$ROOMSTAGER_URL/api/v1/images" \\
  -H "Authorization: Bearer $ROOMSTAGER_KEY" \\
  -H "Idempotency-Key: $(openssl rand -hex 16)" -F file=@room.jpg | jq -r .id)`}</Code>
        <p>
          It also takes the app's JSON, the file in base64 with its name: <code className={inline}>{'{"imageData": "...", "filename": "room.jpg"}'}</code>.
        </p>
      </Section>

      <Section id="create-job" title="2. Start a staging">
        <p>
          <code className={inline}>POST /api/v1/jobs</code> with <code className={inline}>imageId</code>, <code className={inline}>style</code> (modern,
          traditional, minimalist, luxury), optionally <code className={inline}>roomType</code> (living_room, bedroom, dining_room, kitchen, office) and{' '}
          <code className={inline}>webhookUrl</code> (https). It answers <code className={inline}>202</code> with the job, status{' '}
          <code className={inline}>pending</code>, and debits one credit.
        </p>
        <Code>{`JOB_ID=$(curl -sS -X POST "$ROOMSTAGER_URL/api/v1/jobs" \\
-H "Authorization: Bearer $ROOMSTAGER_KEY" -H "Content-Type: application/json" \\
-H "Idempotency-Key: $(openssl rand -hex 16)" \\
-d "{\\"imageId\\": \\"$IMAGE_ID\\", \\"style\\": \\"modern\\", \\"roomType\\": \\"bedroom\\"}" | jq -r .id)`}</Code>
      </Section>

      <Section id="get-job" title="3. Follow the job">
        <p>
          <code className={inline}>GET /api/v1/jobs/{'{id}'}</code> answers its <code className={inline}>status</code> (pending, processing, completed,
          failed), <code className={inline}>originalImageUrl</code>, <code className={inline}>stagedImageUrl</code> once completed,{' '}
          <code className={inline}>errorMessage</code> when failed, and its times. Poll every few seconds, or use a webhook.
        </p>
        <Code>{`curl -sS "$ROOMSTAGER_URL/api/v1/jobs/$JOB_ID" -H "Authorization: Bearer $ROOMSTAGER_KEY"`}</Code>
      </Section>

      <Section id="download" title="4. Download the result">
        <p>Image URLs in answers are fetched with the same key (JPEG).</p>
        <Code>{`STAGED_URL=$(curl -sS "$ROOMSTAGER_URL/api/v1/jobs/$JOB_ID" -H "Authorization: Bearer $ROOMSTAGER_KEY" | jq -r .stagedImageUrl)
curl -sS "$STAGED_URL" -H "Authorization: Bearer $ROOMSTAGER_KEY" -o staged.jpg`}</Code>
      </Section>

      <Section id="list-jobs" title="List jobs">
        <p>
          <code className={inline}>GET /api/v1/jobs</code> answers <code className={inline}>{'{jobs, nextCursor}'}</code>, newest first,{' '}
          <code className={inline}>limit</code> 1-100 (20 by default). Pass <code className={inline}>nextCursor</code> as{' '}
          <code className={inline}>cursor</code> for the next page; it is null on the last one.
        </p>
        <Code>{`curl -sS "$ROOMSTAGER_URL/api/v1/jobs?limit=50" -H "Authorization: Bearer $ROOMSTAGER_KEY"
curl -sS "$ROOMSTAGER_URL/api/v1/jobs?limit=50&cursor=$NEXT_CURSOR" -H "Authorization: Bearer $ROOMSTAGER_KEY"`}</Code>
      </Section>

      <Section id="delete-job" title="Delete a job">
        <p>
          <code className={inline}>DELETE /api/v1/jobs/{'{id}'}</code> deletes the job and its images and answers <code className={inline}>204</code>. A job
          still pending or processing is cancelled and its credit refunded.
        </p>
        <Code>{`curl -sS -X DELETE "$ROOMSTAGER_URL/api/v1/jobs/$JOB_ID" -H "Authorization: Bearer $ROOMSTAGER_KEY"`}</Code>
      </Section>

      <Section id="account" title="Credits">
        <p>
          <code className={inline}>GET /api/v1/account</code> answers <code className={inline}>{'{credits}'}</code>, your balance.
        </p>
        <Code>{`curl -sS "$ROOMSTAGER_URL/api/v1/account" -H "Authorization: Bearer $ROOMSTAGER_KEY"`}</Code>
      </Section>

      <Section id="retries" title="Retries, limits and errors">
        <p>
          Send an <code className={inline}>Idempotency-Key</code> header (8-100 letters, digits, - or _; a UUID) on every POST. Sending the same request
          again with the same key answers the first result and charges nothing; the same key with a different body is a 422.
        </p>
        <p>
          Each key may make a number of calls a minute, all endpoints together. Every answer says where you are:{' '}
          <code className={inline}>RateLimit-Policy: "per-key";q=120;w=60</code> and <code className={inline}>RateLimit: "per-key";r=119;t=60</code> (calls
          left, seconds to the window's end). Over it, the answer is 429 with <code className={inline}>Retry-After</code>.
        </p>
        <p>
          Errors have one shape, <code className={inline}>{'{"error": {"code": "...", "message": "..."}}'}</code>, with a stable code: BAD_REQUEST (with{' '}
          <code className={inline}>details</code> per field), INVALID_API_KEY (401: missing, unknown or revoked key), ENTERPRISE_REQUIRED (403),
          INSUFFICIENT_CREDITS (402), NOT_FOUND (404, also for ids of other accounts), IDEMPOTENCY_KEY_REUSED (422), WEBHOOK_URL_NOT_ALLOWED (422), image
          problems such as FILE_TOO_LARGE or UNSUPPORTED_IMAGE_TYPE, TOO_MANY_ACTIVE_JOBS and RATE_LIMITED (429).
        </p>
      </Section>

      <Section id="webhooks" title="Webhooks">
        <p>
          A job created with <code className={inline}>webhookUrl</code> gets a POST there when it completes or fails: JSON{' '}
          <code className={inline}>{'{id, type, createdAt, data: {job}}'}</code> with <code className={inline}>type</code>{' '}
          <code className={inline}>job.completed</code> or <code className={inline}>job.failed</code>. Answer with any 2xx within 10 seconds; otherwise it
          is sent again with growing pauses for a day, with the same <code className={inline}>id</code> (also in the{' '}
          <code className={inline}>RoomStager-Delivery</code> header), so handle each id once. Redirects are not followed, and addresses that are not public
          (private, loopback, link-local) are refused.
        </p>
        <p>
          Each delivery is signed with your account's webhook secret (on the API Keys page):{' '}
          <code className={inline}>RoomStager-Signature: t=1767225600,v1=5f2b...</code>, where <code className={inline}>v1</code> is the hex
          HMAC-SHA256 of the timestamp, a dot and the raw body. Check it before trusting the body, and refuse old timestamps:
        </p>
        <Code>{`import { createHmac, timingSafeEqual } from 'node:crypto';

// rawBody: the request body exactly as received (a string), before any JSON parsing.
export function verifyRoomStager(secret, signatureHeader, rawBody, toleranceSeconds = 300) {
const parts = Object.fromEntries(signatureHeader.split(',').map((kv) => kv.split('=')));
const t = Number(parts.t);
if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceSeconds || !parts.v1) return false;
const expected = createHmac('sha256', secret).update(\`\${t}.\${rawBody}\`).digest();
const given = Buffer.from(parts.v1, 'hex');
return given.length === expected.length && timingSafeEqual(given, expected);
}`}</Code>
      </Section>
    </DocumentLayout>
  );
}
