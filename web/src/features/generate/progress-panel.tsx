import { useEffect, useState } from 'react';

/** A time-based animation, advancing every 2 seconds; not real progress. */
export const PROGRESS_STAGES = [
  { percent: 20, text: 'Analyzing room layout and features...', remaining: '1m 20s' },
  { percent: 45, text: 'Generating furniture placement...', remaining: '45s' },
  { percent: 75, text: 'Rendering staged image...', remaining: '20s' },
  { percent: 100, text: 'Complete!', remaining: '0s' },
] as const;

/** Ticks (of 2 s) after which each stage begins; the last stage waits for the job. */
const STAGE_STARTS = [0, 5, 15];

export function stageForTick(tick: number, done: boolean): number {
  if (done) return PROGRESS_STAGES.length - 1;
  let stage = 0;
  STAGE_STARTS.forEach((start, i) => {
    if (tick >= start) stage = i;
  });
  return stage;
}

export function ProgressPanel({ done }: { done: boolean }) {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = window.setInterval(() => setTick((t) => t + 1), 2000);
    return () => window.clearInterval(timer);
  }, []);
  const stage = PROGRESS_STAGES[stageForTick(tick, done)] ?? PROGRESS_STAGES[0];
  return (
    <section aria-labelledby="progress-title" className="rounded-xl border border-stone-200 bg-white p-6 shadow-sm">
      <h2 id="progress-title" className="text-lg font-semibold">
        Staging your photo
      </h2>
      <p className="mt-3 text-sm text-stone-700" aria-live="polite">
        {stage.text}
      </p>
      <div
        role="progressbar"
        aria-label="Staging progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={stage.percent}
        className="mt-4 h-3 overflow-hidden rounded-full bg-stone-100"
      >
        <div className="h-full rounded-full bg-accent-700 transition-[width] duration-500 ease-out" style={{ width: `${stage.percent}%` }} />
      </div>
      <div className="mt-2 flex justify-between text-xs text-stone-600">
        <span>{stage.percent}%</span>
        <span>Estimated time remaining: {stage.remaining}</span>
      </div>
    </section>
  );
}
