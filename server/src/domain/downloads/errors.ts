import { DomainError } from '../errors.ts';

export type DownloadsErrorCode = 'SIZE_NOT_INCLUDED';

/** A size the account's packs do not include (4K without the Enterprise pack). */
export class SizeNotIncludedError extends DomainError<DownloadsErrorCode> {
  constructor() {
    super('SIZE_NOT_INCLUDED', '4K downloads come with the Enterprise pack. HD is included with every pack; see the pricing page to get 4K.');
  }
}
