import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { BeforeAfterSlider, comparisonReady, currentStatus, statusOf } from '../src/components/before-after-slider.tsx';

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
