import { describe, expect, it } from 'vitest';
import { PROGRESS_STAGES, stageForTick } from '../src/features/generate/progress-panel.tsx';
import { creditsUsedLabel, isInProgress, jobTitle, processingTime, statusLabel } from '../src/lib/job-format.ts';

describe('job display rules', () => {
  it('reads unknown statuses as Pending', () => {
    expect(statusLabel('completed')).toBe('Completed');
    expect(statusLabel('failed')).toBe('Failed');
    expect(statusLabel('queued')).toBe('Pending');
  });
  it("falls back to '{style} staging' without a label", () => {
    expect(jobTitle({ userLabel: null, style: 'modern' })).toBe('modern staging');
    expect(jobTitle({ userLabel: '', style: 'luxury' })).toBe('luxury staging');
    expect(jobTitle({ userLabel: 'Oak St', style: 'luxury' })).toBe('Oak St');
  });
  it("shows processing time as 'Xm Ys' or 'N/A'", () => {
    expect(processingTime({ processingStartedAt: '2026-01-01T10:00:00Z', processingCompletedAt: '2026-01-01T10:01:47Z' })).toBe('1m 47s');
    expect(processingTime({ processingStartedAt: '2026-01-01T10:00:00Z', processingCompletedAt: '2026-01-01T10:00:09.6Z' })).toBe('0m 10s');
    expect(processingTime({ processingStartedAt: '2026-01-01T10:00:00Z', processingCompletedAt: null })).toBe('N/A');
    expect(processingTime({ processingStartedAt: null, processingCompletedAt: null })).toBe('N/A');
  });
  it('shows a refunded job as costing nothing', () => {
    expect(creditsUsedLabel({ creditsUsed: 1, status: 'completed' })).toBe('1');
    expect(creditsUsedLabel({ creditsUsed: 0, status: 'failed' })).toBe('0 (refunded)');
  });
  it('counts pending and processing jobs as in progress', () => {
    expect(isInProgress({ status: 'pending' })).toBe(true);
    expect(isInProgress({ status: 'processing' })).toBe(true);
    expect(isInProgress({ status: 'completed' })).toBe(false);
    expect(isInProgress(null)).toBe(false);
  });
});

describe('progress panel', () => {
  it('advances on time but waits at the third stage until the job is done', () => {
    expect(PROGRESS_STAGES.map((s) => s.percent)).toEqual([20, 45, 75, 100]);
    expect(stageForTick(0, false)).toBe(0);
    expect(stageForTick(5, false)).toBe(1);
    expect(stageForTick(15, false)).toBe(2);
    expect(stageForTick(10_000, false)).toBe(2);
    expect(stageForTick(1, true)).toBe(3);
  });
});
