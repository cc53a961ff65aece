import { WEBHOOK_SIGNATURE_HEADER, type WebhookEvent, type WebhookEventType } from '@roomstager/contracts';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Db, Tx } from '../../db/client.ts';
import { toApiJob } from '../jobs/api-job.ts';
import type { FinishedJob } from '../jobs/job-queue.ts';
import { isForbiddenAddress } from './address-check.ts';
import { WebhookUrlNotAllowedError } from './errors.ts';
import { WebhooksRepository, type DeliveryRow } from './webhooks.repository.ts';

/** After the first failed attempt, then each later one; the last delay repeats until the day is over. */
export const RETRY_DELAYS_MS: readonly number[] = [30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000];
/** A delivery is retried for a day after its event, then given up (status failed). */
export const DELIVERY_MAX_AGE_MS = 86_400_000;
const SEND_TIMEOUT_MS = 10_000;

export interface WebhooksOptions {
  publicOrigin: string;
  /** Development and tests: http to localhost is a valid webhookUrl, and any address may be called. */
  development: boolean;
  retryDelaysMs?: readonly number[];
  maxAgeMs?: number;
  timeoutMs?: number;
}

/** Where each attempt is reported (the worker's logger). */
export interface DeliveryLog {
  info(fields: object, msg: string): void;
  warn(fields: object, msg: string): void;
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` under the account's secret. */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  return `t=${unixSeconds},v1=${createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')}`;
}

class RefusedAddressError extends Error {}

/** Resolves like dns.lookup, refusing a name with any forbidden address (the connection then goes to one that was checked). */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 0);
    const refused = addresses.find((a) => isForbiddenAddress(a.address));
    if (refused || addresses.length === 0) return callback(new RefusedAddressError(`${hostname} resolves to a private or reserved address (${refused?.address ?? 'none'})`), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    const [first] = addresses as [LookupAddress];
    return callback(null, first.address, first.family);
  });
};

/** The address of a URL whose host is an IP literal (also in the decimal or hex forms, which URL parsing has already normalised), else null. */
function literalAddress(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? host : null;
}

const LOCALHOST = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Webhooks of API jobs: the account's signing secret, the event written in the transaction that
 * ends the job (an outbox, so an event is never lost nor sent for a rolled-back end), and the
 * deliveries the worker's sweep sends: signed, one attempt per claim, retried with backoff for a
 * day, every attempt recorded on its row and logged. Outside development the destination is
 * resolved at each attempt and refused when any of its addresses is private, loopback,
 * link-local or otherwise not public (address-check.ts), and redirects are never followed.
 */
export class WebhooksService {
  private readonly repository: WebhooksRepository;
  private readonly retryDelaysMs: readonly number[];
  private readonly maxAgeMs: number;
  private readonly timeoutMs: number;

  constructor(
    private readonly db: Db,
    private readonly options: WebhooksOptions,
  ) {
    this.repository = new WebhooksRepository(db);
    this.retryDelaysMs = options.retryDelaysMs ?? RETRY_DELAYS_MS;
    this.maxAgeMs = options.maxAgeMs ?? DELIVERY_MAX_AGE_MS;
    this.timeoutMs = options.timeoutMs ?? SEND_TIMEOUT_MS;
  }

  /** A job's webhookUrl as the API takes it: https, or in development http to this machine; a 422 otherwise. */
  checkUrl(url: string): string {
    const parsed = new URL(url);
    const allowed = parsed.protocol === 'https:' || (this.options.development && parsed.protocol === 'http:' && LOCALHOST.has(parsed.hostname));
    if (!allowed || parsed.username || parsed.password) throw new WebhookUrlNotAllowedError(this.options.development);
    return parsed.toString();
  }

  /** The account's signing secret, made on first need. */
  secret(userId: string): Promise<string> {
    return this.repository.secret(this.db, userId, newSecret());
  }

  /** Writes the job's end event for delivery, inside the transaction that ends it; nothing for a job without a webhook. */
  async recordEnd(tx: Tx, job: FinishedJob): Promise<void> {
    if (!job.webhookUrl || (job.status !== 'completed' && job.status !== 'failed')) return;
    await this.repository.secret(tx, job.userId, newSecret());
    const type: WebhookEventType = job.status === 'completed' ? 'job.completed' : 'job.failed';
    const event: WebhookEvent = { id: randomUUID(), type, createdAt: new Date().toISOString(), data: { job: toApiJob(job, this.options.publicOrigin) } };
    await this.repository.insertDelivery(tx, { id: event.id, userId: job.userId, jobId: job.id, url: job.webhookUrl, event: type, payload: JSON.stringify(event) });
  }

  /** Sends up to `limit` due deliveries, one attempt each; answers how many were attempted. */
  async deliverDue(limit: number, log: DeliveryLog): Promise<number> {
    const due = await this.repository.claimDue(limit, this.timeoutMs * 3);
    await Promise.all(due.map((delivery) => this.attempt(delivery, log)));
    return due.length;
  }

  /** A job's deliveries, oldest first. */
  deliveriesOf(jobId: string): Promise<DeliveryRow[]> {
    return this.repository.forJob(jobId);
  }

  private async attempt(delivery: DeliveryRow & { secret: string }, log: DeliveryLog): Promise<void> {
    const fields = { event: 'webhook.attempt', deliveryId: delivery.id, jobId: delivery.jobId, attempt: delivery.attempts, host: new URL(delivery.url).host };
    let statusCode: number | null = null;
    let error = '';
    try {
      statusCode = await this.post(delivery);
      if (statusCode < 200 || statusCode >= 300) error = `HTTP ${statusCode}`;
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    if (!error && statusCode !== null) {
      await this.repository.recordAttempt(delivery, { delivered: true, statusCode });
      log.info({ ...fields, statusCode }, 'webhook delivered');
      return;
    }
    const retryInMs = this.retryDelaysMs[Math.min(delivery.attempts, this.retryDelaysMs.length) - 1] ?? 0;
    const status = await this.repository.recordAttempt(delivery, { delivered: false, statusCode, error: error.slice(0, 500), retryInMs, maxAgeMs: this.maxAgeMs });
    log.warn({ ...fields, statusCode, error, status }, status === 'failed' ? 'webhook given up after a day of retries' : 'webhook attempt failed; retried later');
  }

  /** One signed POST; answers the status. Redirects are answers like any other (never followed). */
  private post(delivery: DeliveryRow & { secret: string }): Promise<number> {
    const url = new URL(delivery.url);
    const guard = !this.options.development;
    const literal = literalAddress(url);
    if (guard && literal !== null && isForbiddenAddress(literal)) return Promise.reject(new RefusedAddressError(`${literal} is a private or reserved address`));
    const body = Buffer.from(delivery.payload);
    const headers = {
      'content-type': 'application/json',
      'content-length': String(body.length),
      'user-agent': 'RoomStager-Webhooks/1',
      'roomstager-event': delivery.event,
      'roomstager-delivery': delivery.id,
      [WEBHOOK_SIGNATURE_HEADER.toLowerCase()]: signatureHeader(delivery.secret, delivery.payload, Math.floor(Date.now() / 1000)),
    };
    const send = url.protocol === 'https:' ? https.request : http.request;
    return new Promise((resolve, reject) => {
      // The idle timeout alone would let a receiver that trickles its answer hold the sweep: the
      // signal bounds the whole exchange, and the body is never read (the status is the answer).
      const options = { method: 'POST', headers, timeout: this.timeoutMs, signal: AbortSignal.timeout(this.timeoutMs), ...(guard ? { lookup: guardedLookup } : {}) };
      const req = send(url, options, (res) => {
        res.destroy();
        resolve(res.statusCode ?? 0);
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${this.timeoutMs} ms`)));
      req.on('error', reject);
      req.end(body);
    });
  }
}

const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;
