import { LISTING_PHOTOS_MAX } from '@roomstager/contracts';
import { DomainError } from '../errors.ts';

export type ListingsErrorCode = 'LISTING_FULL';

/** A photo added to a listing that holds LISTING_PHOTOS_MAX already. */
export class ListingFullError extends DomainError<ListingsErrorCode> {
  constructor() {
    super('LISTING_FULL', `A listing holds at most ${LISTING_PHOTOS_MAX} photos. Remove one, or start another listing for more.`);
  }
}
