import type { RgbImage } from '../local/image.ts';
import type { LockAnalysis } from './analysis.ts';
import { Surface } from './zones.ts';

/**
 * Debug views on the working grid, side by side: the registered answer (zones tinted: structure
 * blue, openings yellow), and the change strength over the original (changes red, kept additions
 * green).
 */
export function drawDebug(a: LockAnalysis): RgbImage {
  const { width, height } = a.change;
  const out = new Uint8Array(width * 2 * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const left = (y * 2 * width + x) * 3;
      const right = left + width * 3;
      const valid = a.change.valid.data[i] === 1;
      for (let c = 0; c < 3; c++) {
        const reg = valid ? a.change.registered[c]!.data[i]! * 255 : 0;
        out[left + c] = reg;
        out[right + c] = a.change.original[c]!.data[i]! * 255 * 0.6;
      }
      if (a.zones.structure.data[i]) out[left + 2] = Math.min(255, out[left + 2]! * 0.6 + 100);
      if (a.zones.openings.data[i]) out[left + 0] = Math.min(255, out[left]! * 0.6 + 100);
      if (a.zones.surface[i] === Surface.Ceiling && (x + y) % 8 === 0) out[left + 1] = 255;
      const s = Math.min(1, a.change.strength[i]! / 2);
      if (a.change.changed.data[i]) {
        const kept = a.added.data[i]! > 0.5;
        out[right + (kept ? 1 : 0)] = Math.min(255, out[right + (kept ? 1 : 0)]! + 255 * s);
      }
    }
  }
  return { width: width * 2, height, data: out };
}
