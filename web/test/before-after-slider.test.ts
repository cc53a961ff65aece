import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { BeforeAfterSlider, boxShape, comparisonReady, currentStatus, statusOf } from '../src/components/before-after-slider.tsx';

const before = { src: '/api/images/before', alt: 'Your original photo' };
const after = { src: '/api/images/after', alt: 'Your staged photo' };

describe('before/after slider waits for both photos', () => {
  it('renders a placeholder first: both photos in the page (so they load) but the comparison invisible', () => {
    const html = renderToStaticMarkup(createElement(BeforeAfterSlider, { before, after, width: 4, height: 3 }));
    expect(html).toContain('aria-busy="true"');
    expect(html).toContain('Loading the before and after photos');
    expect(html).toContain(`src="${before.src}"`);
    expect(html).toContain(`src="${after.src}"`);
    expect(html).toMatch(/<div class="absolute inset-0 invisible">.*role="slider"/);
    expect(html).toContain('aspect-ratio:4 / 3');
  });

  it('paints at once on prerendered pages, which opt out (their photos must not wait for JavaScript)', () => {
    const html = renderToStaticMarkup(createElement(BeforeAfterSlider, { before, after, width: 4, height: 3, holdUntilLoaded: false }));
    expect(html).toContain('aria-busy="false"');
    expect(html).not.toContain('Loading the before and after photos');
    expect(html).not.toContain('invisible');
    expect(html).toContain('role="slider"');
  });

  it('is not shown while either photo is loading, and is once both load events came', () => {
    const beforeSide = new Map<string, 'loaded' | 'failed'>();
    const afterSide = new Map<string, 'loaded' | 'failed'>();
    const ready = (afterSrc = after.src) => comparisonReady(statusOf(beforeSide, before.src), statusOf(afterSide, afterSrc));
    expect(ready()).toBe(false);
    afterSide.set(after.src, 'loaded'); // the staged photo first: the moment of the bug
    expect(ready()).toBe(false);
    beforeSide.set(before.src, 'loaded');
    expect(ready()).toBe(true);
    // A new photo on one side starts over: the outcome of the previous one does not count.
    expect(ready('/api/images/regenerated')).toBe(false);
  });

  it('counts a photo that failed as settled (its side says so), but not one still loading', () => {
    expect(comparisonReady('failed', 'loaded')).toBe(true);
    expect(comparisonReady('failed', 'failed')).toBe(true);
    expect(comparisonReady('loading', 'failed')).toBe(false);
  });

  it('reads images complete before React listened (cached or prerendered): pixels loaded, none failed', () => {
    expect(currentStatus({ complete: true, naturalWidth: 1600 })).toBe('loaded');
    expect(currentStatus({ complete: true, naturalWidth: 0 })).toBe('failed');
    expect(currentStatus({ complete: false, naturalWidth: 0 })).toBe('loading');
    expect(comparisonReady(currentStatus({ complete: true, naturalWidth: 800 }), currentStatus({ complete: true, naturalWidth: 800 }))).toBe(true);
  });
});

describe("before/after slider takes the photo's own shape", () => {
  const portrait = { src: before.src, width: 1049, height: 1400 };

  it('keeps a size it is given (prerendered pages reserve their box before any photo loads)', () => {
    expect(boxShape({ width: 1600, height: 1067 }, portrait, before.src)).toEqual({ width: 1600, height: 1067 });
  });

  it("otherwise takes the before photo's natural size once loaded, 4:3 until then", () => {
    expect(boxShape({}, null, before.src)).toEqual({ width: 4, height: 3 });
    expect(boxShape({}, portrait, before.src)).toEqual({ width: 1049, height: 1400 });
    // The size of a photo shown earlier does not stand for a new one.
    expect(boxShape({}, portrait, '/api/images/other')).toEqual({ width: 4, height: 3 });
  });

  it('fills the width it is given and, with a maximum height, narrows to keep the shape', () => {
    const html = renderToStaticMarkup(createElement(BeforeAfterSlider, { before, after, maxHeight: '70svh' }));
    expect(html).toMatch(/class="relative mx-auto w-full /);
    expect(html).toContain('aspect-ratio:4 / 3;max-width:calc(70svh * 4 / 3)');
  });
});
