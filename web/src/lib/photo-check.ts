import { MAX_UPLOAD_BYTES } from '@roomstager/contracts';

/** Why a chosen photo is refused, named by the drop-zone's rejection codes. */
export type PhotoProblem = 'file-invalid-type' | 'file-too-large' | 'file-too-small' | 'too-many-files';

/** The type and size checks have their own words; the other refusals say what a valid photo is. */
export const PHOTO_PROBLEM_TEXT: Record<PhotoProblem, string> = {
  'file-invalid-type': 'Please upload a JPEG or PNG image file.',
  'file-too-large': 'File size must be less than 10MB.',
  'file-too-small': 'Please upload a valid image file (JPG, PNG) under 10MB',
  'too-many-files': 'Please upload a valid image file (JPG, PNG) under 10MB',
};

/** What the file picker offers. Only a filter: a file is judged by its content. */
export const PICKER_ACCEPT = 'image/jpeg,image/jpg,image/png,.jpg,.jpeg,.png';

const JPEG_MAGIC = [0xff, 0xd8, 0xff];
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** JPEG or PNG by the file's first bytes: its name and the browser's type guess come from the name. */
export async function isJpegOrPng(file: Blob): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, PNG_MAGIC.length).arrayBuffer());
  const startsWith = (magic: number[]) => magic.every((byte, i) => head[i] === byte);
  return startsWith(JPEG_MAGIC) || startsWith(PNG_MAGIC);
}

/** The check of one chosen file: null when it can be staged. */
export async function checkFile(file: Blob): Promise<PhotoProblem | null> {
  if (file.size === 0) return 'file-too-small';
  if (!(await isJpegOrPng(file))) return 'file-invalid-type';
  if (file.size > MAX_UPLOAD_BYTES) return 'file-too-large';
  return null;
}
