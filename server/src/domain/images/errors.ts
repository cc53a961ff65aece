import { DomainError } from '../errors.ts';

export type ImagesErrorCode =
  | 'INVALID_BASE64'
  | 'FILE_TOO_LARGE'
  | 'UNSUPPORTED_IMAGE_TYPE'
  | 'UNREADABLE_IMAGE'
  | 'TRAILING_DATA'
  | 'IMAGE_TOO_COMPLEX'
  | 'IMAGE_TOO_LARGE'
  | 'IMAGE_TOO_SMALL'
  | 'TOO_MANY_UPLOADS'
  | 'BUSY';

/** An upload refused for its content, or because too many are being decoded already; nothing is stored. */
export class UploadRejectedError extends DomainError<ImagesErrorCode> {}
