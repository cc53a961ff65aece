import type { ApiKeysErrorCode } from '../domain/api-keys/errors.ts';
import type { CreditsErrorCode } from '../domain/credits/errors.ts';
import type { DownloadsErrorCode } from '../domain/downloads/errors.ts';
import type { CommonErrorCode } from '../domain/errors.ts';
import type { ImagesErrorCode } from '../domain/images/errors.ts';
import type { JobsErrorCode } from '../domain/jobs/errors.ts';
import type { ListingsErrorCode } from '../domain/listings/errors.ts';
import type { PaymentsErrorCode } from '../domain/payments/errors.ts';
import type { WebhooksErrorCode } from '../domain/webhooks/errors.ts';

export type ErrorCode = CommonErrorCode | CreditsErrorCode | JobsErrorCode | ImagesErrorCode | PaymentsErrorCode | DownloadsErrorCode | ApiKeysErrorCode | WebhooksErrorCode | ListingsErrorCode;

/** The HTTP status of every domain error code: the only place a refusal becomes a status. */
const HTTP_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INSUFFICIENT_CREDITS: 402,
  TOO_MANY_ACTIVE_JOBS: 429,
  IDEMPOTENCY_KEY_REUSED: 422,
  JOB_NOT_FAILED: 409,
  JOB_NOT_COMPLETED: 409,
  PHOTO_STAGING_IN_PROGRESS: 409,
  VARIATIONS_INCLUDED: 409,
  VARIATION_LIMIT_REACHED: 409,
  SIZE_NOT_INCLUDED: 403,
  INVALID_BASE64: 400,
  FILE_TOO_LARGE: 413,
  UNSUPPORTED_IMAGE_TYPE: 415,
  UNREADABLE_IMAGE: 422,
  TRAILING_DATA: 422,
  IMAGE_TOO_COMPLEX: 422,
  IMAGE_TOO_LARGE: 422,
  IMAGE_TOO_SMALL: 422,
  TOO_MANY_UPLOADS: 429,
  BUSY: 503,
  INSTRUMENT_DECLINED: 422,
  ORDER_NOT_APPROVED: 422,
  PAYMENT_DECLINED: 422,
  PAYMENT_FAILED: 409,
  PAYMENT_PROVIDER_ERROR: 502,
  WEBHOOK_NOT_CONFIGURED: 503,
  WEBHOOK_UNVERIFIED: 400,
  INVALID_API_KEY: 401,
  ENTERPRISE_REQUIRED: 403,
  TOO_MANY_API_KEYS: 409,
  WEBHOOK_URL_NOT_ALLOWED: 422,
  LISTING_FULL: 409,
  LISTING_NOT_STAGED: 409,
} as const satisfies Record<ErrorCode, number>;

/** The status a domain error code answers with; a code without one is a bug, answered as a 500. */
export function httpStatus(code: string): number {
  return Object.hasOwn(HTTP_STATUS, code) ? HTTP_STATUS[code as ErrorCode] : 500;
}
