import { DomainError } from '../errors.ts';

export type WebhooksErrorCode = 'WEBHOOK_URL_NOT_ALLOWED';

/** A webhookUrl the API does not send to: not https (in development, http only to this machine). */
export class WebhookUrlNotAllowedError extends DomainError<WebhooksErrorCode> {
  constructor(development: boolean) {
    super('WEBHOOK_URL_NOT_ALLOWED', development ? 'webhookUrl must be an https URL, or http on localhost in development' : 'webhookUrl must be an https URL');
  }
}
