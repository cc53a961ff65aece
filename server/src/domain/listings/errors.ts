import { LISTING_PHOTOS_MAX } from '@roomstager/contracts';
import { DomainError } from '../errors.ts';

export type ListingsErrorCode = 'LISTING_FULL' | 'LISTING_NOT_STAGED';

/** A photo added to a listing that holds LISTING_PHOTOS_MAX already. */
export class ListingFullError extends DomainError<ListingsErrorCode> {
  constructor() {
    super('LISTING_FULL', `A listing holds at most ${LISTING_PHOTOS_MAX} photos. Remove one, or start another listing for more.`);
  }
}

/** A download of a listing none of whose photos has a finished staging. */
export class ListingNotStagedError extends DomainError<ListingsErrorCode> {
  constructor() {
    super('LISTING_NOT_STAGED', 'Nothing in this listing is staged yet. Stage its photos, then download them.');
  }
}
