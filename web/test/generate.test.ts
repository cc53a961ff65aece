import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FailurePanel } from '../src/features/generate/failure-panel.tsx';
import { dropOutcome } from '../src/features/generate/file-check.ts';
import { checkFile, PHOTO_PROBLEM_TEXT } from '../src/lib/photo-check.ts';
import { uploadBody } from '../src/lib/upload-body.ts';

const JPEG_START = [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46];
const PNG_START = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d];
/** A file of `size` bytes that starts with these bytes. */
const fileOf = (start: number[], size: number, name = 'room.jpg', type = 'image/jpeg') => {
  const bytes = new Uint8Array(size);
  bytes.set(start.slice(0, size));
  return new File([bytes], name, { type });
};

describe('photo check when chosen', () => {
  it('takes JPEG and PNG by their content, whatever their name and type say', async () => {
    expect(await checkFile(fileOf(JPEG_START, 2048))).toBeNull();
    expect(await checkFile(fileOf(PNG_START, 2048, 'room.png', 'image/png'))).toBeNull();
    expect(await checkFile(fileOf(JPEG_START, 2048, 'IMG_0001', ''))).toBeNull();
    expect(await checkFile(fileOf(PNG_START, 2048, 'room.gif', 'image/gif'))).toBeNull();
  });

  it('refuses anything else, even named and typed as a JPEG', async () => {
    const pdf = [...new TextEncoder().encode('%PDF-1.7')];
    expect(await checkFile(fileOf(pdf, 2048, 'living-room.jpg', 'image/jpeg'))).toBe('file-invalid-type');
    expect(await checkFile(fileOf([...new TextEncoder().encode('GIF89a')], 2048, 'room.gif', 'image/gif'))).toBe('file-invalid-type');
    expect(await checkFile(fileOf([0xff, 0xd8], 2))).toBe('file-invalid-type');
  });

  it('takes up to 10485760 bytes and refuses an empty file', async () => {
    expect(await checkFile(fileOf(JPEG_START, 10_485_760))).toBeNull();
    expect(await checkFile(fileOf(JPEG_START, 10_485_761))).toBe('file-too-large');
    expect(await checkFile(fileOf([], 0))).toBe('file-too-small');
  });

  it('says each problem in the words of the product', () => {
    expect(PHOTO_PROBLEM_TEXT).toEqual({
      'file-invalid-type': 'Please upload a JPEG or PNG image file.',
      'file-too-large': 'File size must be less than 10MB.',
      'file-too-small': 'Please upload a valid image file (JPG, PNG) under 10MB',
      'too-many-files': 'Please upload a valid image file (JPG, PNG) under 10MB',
    });
  });

  it('takes one file, and refuses several together instead of keeping the first', () => {
    const a = fileOf(JPEG_START, 16, 'a.jpg');
    const b = fileOf(JPEG_START, 16, 'b.jpg');
    const refused = (file: File, code: string) => ({ file, errors: [{ code }] });
    expect(dropOutcome([a], [])).toEqual({ file: a });
    expect(dropOutcome([a], [refused(b, 'too-many-files')])).toEqual({ problem: 'too-many-files' });
    expect(dropOutcome([], [refused(a, 'file-invalid-type'), refused(b, 'file-too-large')])).toEqual({ problem: 'too-many-files' });
    expect(dropOutcome([], [refused(a, 'file-too-large')])).toEqual({ problem: 'file-too-large' });
    expect(dropOutcome([], [])).toBeNull();
  });
});

describe('failure panel', () => {
  const panel = (errorMessage: string | null) => renderToStaticMarkup(createElement(FailurePanel, { errorMessage, onTryAgain: () => undefined }));
  const refunds = (html: string) => html.match(/refunded/g)?.length ?? 0;

  it('says the credit was refunded once when the message already says so', () => {
    const html = panel('Something went wrong while staging this photo. Your credit has been refunded; please try again.');
    expect(html).toContain('Generation Failed');
    expect(refunds(html)).toBe(1);
    expect(html).not.toContain('Your credit has been refunded.<');
  });

  it('adds the refund when the message does not tell of it', () => {
    const html = panel('This photo could not be read. Please upload a JPEG or PNG photo of a room.');
    expect(html).toContain('This photo could not be read.');
    expect(html).toContain('Your credit has been refunded.');
    expect(refunds(html)).toBe(1);
  });

  it('falls back to the generic text, and the refund, without a message', () => {
    const html = panel(null);
    expect(html).toContain('Something went wrong while processing your image.');
    expect(html).toContain('Your credit has been refunded.');
    expect(html).toContain('Try Again');
  });
});

/** FileReader as browsers have it (Node has none): readAsDataURL answers `result` asynchronously. */
function stubFileReader(result: (blob: Blob, bytes: Buffer) => unknown) {
  vi.stubGlobal(
    'FileReader',
    class {
      result: unknown = null;
      onload: (() => void) | null = null;
      onerror: (() => void) | null = null;
      readAsDataURL(blob: Blob) {
        void blob.arrayBuffer().then((buffer) => {
          this.result = result(blob, Buffer.from(buffer));
          this.onload?.();
        });
      }
    },
  );
}

describe('upload body', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is {imageData, filename} as JSON, imageData being the part after the comma of the data URL', async () => {
    stubFileReader((blob, bytes) => `data:${blob.type};base64,${bytes.toString('base64')}`);
    const file = fileOf(JPEG_START, 300, 'Living "room".jpg');
    const body = await uploadBody(file);
    expect(body.type).toBe('application/json');
    expect(JSON.parse(await body.text())).toEqual({ imageData: Buffer.from(await file.arrayBuffer()).toString('base64'), filename: 'Living "room".jpg' });
  });

  it("fails with 'Failed to convert file to base64' when the read result is not a string", async () => {
    stubFileReader((_blob, bytes) => bytes.buffer);
    await expect(uploadBody(fileOf(JPEG_START, 300))).rejects.toThrow('Failed to convert file to base64');
  });
});
