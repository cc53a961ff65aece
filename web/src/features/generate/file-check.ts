import type { PhotoProblem } from '../../lib/photo-check.ts';

/**
 * What one drop or pick comes to: its photo, or why nothing is taken. Several files are refused
 * together; the drop-zone alone would keep the first and refuse the rest.
 */
export function dropOutcome(
  accepted: readonly File[],
  rejections: readonly { errors: readonly { code: string }[] }[],
): { file: File } | { problem: PhotoProblem } | null {
  const [file] = accepted;
  const [rejection] = rejections;
  if (accepted.length + rejections.length > 1) return { problem: 'too-many-files' };
  // checkFile is the drop-zone's only validation (no accept or size options), so its codes are ours.
  if (rejection) return { problem: (rejection.errors[0]?.code ?? 'file-invalid-type') as PhotoProblem };
  return file ? { file } : null;
}
