import { API_KEY_PREFIX, API_KEY_SHOWN_LENGTH, API_PACK_ID, MAX_API_KEYS, type ApiKey, type ApiKeysResponse, type CreatedApiKey, type CreditPackId } from '@roomstager/contracts';
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { isUuid } from '../../storage/keys.ts';
import { NotFoundError } from '../errors.ts';
import { ApiKeysRepository, type ApiKeyView } from './api-keys.repository.ts';
import { EnterpriseRequiredError, InvalidApiKeyError, TooManyApiKeysError } from './errors.ts';

/** Who calls the API: the key's account, and the key itself (named in the ledger). */
export interface ApiCaller {
  userId: string;
  key: { id: string; name: string; prefix: string };
}

/** A key's last use is written at most once per this, not on every call. */
const LAST_USED_GRANULARITY_MS = 60_000;

/** `rs_live_` and 32 random bytes in base64url: 256 bits, so a plain SHA-256 is a safe stored form. */
const SECRET = /^rs_live_[A-Za-z0-9_-]{43}$/;

const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

function toApiKey(row: ApiKeyView): ApiKey {
  return { id: row.id, name: row.name, prefix: row.prefix, createdAt: row.createdAt.toISOString(), lastUsedAt: row.lastUsedAt?.toISOString() ?? null };
}

/**
 * The keys of the public API. Only an account holding the Enterprise pack creates them or calls
 * with them (asked of payments on every call, so a refunded pack closes the API at once). A key's
 * secret is shown once, at creation; the table keeps its SHA-256 and its first characters.
 */
export class ApiKeysService {
  private readonly repository: ApiKeysRepository;

  constructor(
    db: Db,
    private readonly payments: { hasBought(userId: string, pack: CreditPackId): Promise<boolean> },
  ) {
    this.repository = new ApiKeysRepository(db);
  }

  /** Whether the account may use the API, and its active keys. */
  async overview(userId: string): Promise<ApiKeysResponse> {
    const [enabled, rows] = await Promise.all([this.payments.hasBought(userId, API_PACK_ID), this.repository.listActive(userId)]);
    return { enabled, keys: rows.map(toApiKey) };
  }

  async create(userId: string, name: string): Promise<CreatedApiKey> {
    await this.requireEnterprise(userId);
    const secret = API_KEY_PREFIX + randomBytes(32).toString('base64url');
    const row = await this.repository.insertWithin({ userId, name, prefix: secret.slice(0, API_KEY_SHOWN_LENGTH), secretHash: hashOf(secret) }, MAX_API_KEYS);
    if (!row) throw new TooManyApiKeysError(MAX_API_KEYS);
    return { key: toApiKey(row), secret };
  }

  /** Revokes one of the user's keys: every later call with it is a 401. */
  async revoke(userId: string, keyId: string): Promise<void> {
    if (!isUuid(keyId) || !(await this.repository.revoke(userId, keyId))) throw new NotFoundError('API key not found');
  }

  /** 403 unless the account holds the Enterprise pack. */
  async requireEnterprise(userId: string): Promise<void> {
    if (!(await this.payments.hasBought(userId, API_PACK_ID))) throw new EnterpriseRequiredError();
  }

  /**
   * The caller of an `Authorization` header: a 401 for no Bearer key, an unknown or a revoked one,
   * a 403 for an account without the Enterprise pack. Records the key's use.
   */
  async authenticate(authorization: string | undefined): Promise<ApiCaller> {
    const match = /^Bearer +(\S+)$/i.exec(authorization?.trim() ?? '');
    const secret = match?.[1];
    if (!secret || !SECRET.test(secret)) throw new InvalidApiKeyError();
    const row = await this.repository.findActiveByHash(hashOf(secret));
    if (!row) throw new InvalidApiKeyError();
    await this.requireEnterprise(row.userId);
    if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() >= LAST_USED_GRANULARITY_MS) await this.repository.touch(row.id, LAST_USED_GRANULARITY_MS);
    return { userId: row.userId, key: { id: row.id, name: row.name, prefix: row.prefix } };
  }
}
