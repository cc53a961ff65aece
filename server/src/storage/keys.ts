/**
 * Storage keys, derived from image ids only (never from a user's file name). A two-character
 * prefix spreads files over directories on local disk.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function checked(imageId: string): string {
  if (!UUID.test(imageId)) throw new Error(`Not an image id: ${JSON.stringify(imageId)}`);
  return imageId;
}

/** The image file itself (always JPEG). */
export function imageKey(imageId: string): string {
  const id = checked(imageId);
  return `images/${id.slice(0, 2)}/${id}.jpg`;
}

/** Its small WebP thumbnail for gallery cards. */
export function thumbnailKey(imageId: string): string {
  const id = checked(imageId);
  return `thumbnails/${id.slice(0, 2)}/${id}.webp`;
}

/** A derived size of it (a download size), made on first need. */
export function renditionKey(imageId: string, name: string): string {
  const id = checked(imageId);
  return `renditions/${id.slice(0, 2)}/${id}-${name}.jpg`;
}

export function isUuid(value: string): boolean {
  return UUID.test(value);
}
