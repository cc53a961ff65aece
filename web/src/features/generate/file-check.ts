import { MAX_UPLOAD_BYTES } from '@roomstager/contracts';

/** Spec section 5: the accepted types, and the drop-zone's accept map. */
export const ACCEPTED_TYPES = ['image/jpeg', 'image/jpg', 'image/png'];
export const DROPZONE_ACCEPT = { 'image/jpeg': ['.jpg', '.jpeg'], 'image/png': ['.png'] };

/** The separate file check: null when fine, else the toast's message. */
export function checkFile(file: Pick<File, 'type' | 'size'>): string | null {
  if (!ACCEPTED_TYPES.includes(file.type)) return 'Please upload a JPEG or PNG image file.';
  if (file.size > MAX_UPLOAD_BYTES) return 'File size must be less than 10MB.';
  return null;
}

/** The part after the comma of the file's data URL (spec section 5). */
export function fileToBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const result = reader.result;
      if (typeof result !== 'string') {
        reject(new Error('Failed to convert file to base64'));
        return;
      }
      resolve(result.slice(result.indexOf(',') + 1));
    };
    reader.onerror = () => reject(new Error('Failed to convert file to base64'));
    reader.readAsDataURL(file);
  });
}
