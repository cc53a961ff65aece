import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { RoomUnchanged } from '../src/components/room-unchanged.tsx';

const render = (job: Parameters<typeof RoomUnchanged>[0]['job']) => renderToStaticMarkup(createElement(RoomUnchanged, { job }));

describe('"Room unchanged" on a locked staging', () => {
  it('shows for a completed job the structure lock found faithful', () => {
    expect(render({ status: 'completed', structure: { verdict: 'faithful', score: 0.8, reasons: [] } })).toContain('Room unchanged');
  });

  it('shows for nothing else: the local engine (no verdict), a drift, or a job not done', () => {
    expect(render({ status: 'completed', structure: null })).toBe('');
    expect(render({ status: 'failed', structure: { verdict: 'drift', score: 0.2, reasons: ['walls_recoloured'] } })).toBe('');
    expect(render({ status: 'processing', structure: { verdict: 'faithful', score: 0.8, reasons: [] } })).toBe('');
  });
});
