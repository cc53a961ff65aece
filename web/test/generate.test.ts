import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FailurePanel } from '../src/features/generate/failure-panel.tsx';

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
