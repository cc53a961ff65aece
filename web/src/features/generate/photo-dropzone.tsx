import { useEffect, useMemo, useRef, useState } from 'react';
import { useDropzone } from 'react-dropzone';
import { ImagePlus, X } from 'lucide-react';
import { toast } from '../../components/ui/use-toast.ts';
import { cn } from '../../lib/cn.ts';
import { checkFile, PHOTO_PROBLEM_TEXT, PICKER_ACCEPT, type PhotoProblem } from '../../lib/photo-check.ts';
import { useFocusWhenLost } from '../../lib/use-focus-when-lost.ts';
import { dropOutcome } from './file-check.ts';

interface PhotoDropzoneProps {
  file: File | null;
  onFile: (file: File) => void;
  onClear: () => void;
  disabled?: boolean;
}

/** One photo, JPEG or PNG up to 10 MB, checked when chosen, with a preview once taken. */
export function PhotoDropzone({ file, onFile, onClear, disabled }: PhotoDropzoneProps) {
  const [problem, setProblem] = useState<PhotoProblem | null>(null);
  const preview = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => {
    if (preview) URL.revokeObjectURL(preview);
  }, [preview]);

  const { getRootProps, getInputProps, isDragActive, rootRef } = useDropzone({
    multiple: false,
    disabled,
    validator: async (chosen) => {
      const code = await checkFile(chosen);
      return code && { code, message: PHOTO_PROBLEM_TEXT[code] };
    },
    onDrop: (accepted, rejections) => {
      const outcome = dropOutcome(accepted, rejections);
      if (!outcome) return;
      if ('file' in outcome) {
        setProblem(null);
        onFile(outcome.file);
        return;
      }
      setProblem(outcome.problem);
      toast({ title: 'Invalid file', description: PHOTO_PROBLEM_TEXT[outcome.problem], variant: 'destructive' });
    },
  });

  // The preview replaces the drop-zone and the other way round: focus moves to whichever is shown.
  const previewRef = useRef<HTMLElement>(null);
  useFocusWhenLost(file !== null, file ? previewRef : rootRef);

  if (file && preview) {
    return (
      <figure
        ref={previewRef}
        tabIndex={-1}
        className="relative overflow-hidden rounded-xl border border-stone-200 bg-stone-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-700"
      >
        <img src={preview} alt={`Selected photo: ${file.name}`} className="max-h-[28rem] w-full object-contain" />
        {!disabled && (
          <button
            type="button"
            onClick={onClear}
            aria-label="Remove photo"
            className="absolute top-3 right-3 inline-flex size-11 items-center justify-center rounded-full bg-white/90 text-stone-800 shadow hover:bg-white"
          >
            <X aria-hidden className="size-5" />
          </button>
        )}
        <figcaption className="truncate border-t border-stone-200 bg-white px-4 py-2 text-sm text-stone-700">{file.name}</figcaption>
      </figure>
    );
  }

  return (
    <div>
      <div
        {...getRootProps({
          className: cn(
            'flex min-h-56 cursor-pointer flex-col items-center justify-center gap-3 rounded-xl border-2 border-dashed p-8 text-center transition-colors',
            isDragActive ? 'border-accent-700 bg-accent-50' : 'border-stone-300 bg-stone-50 hover:border-stone-400',
          ),
        })}
      >
        <input {...getInputProps({ accept: PICKER_ACCEPT, 'aria-label': 'Upload a photo of an empty room' })} />
        <ImagePlus aria-hidden className="size-10 text-accent-700" />
        <p className="font-medium text-stone-900">{isDragActive ? 'Drop the photo here' : 'Drag a photo here, or click to choose one'}</p>
        <p className="text-sm text-stone-600">Supports JPG, PNG up to 10MB</p>
      </div>
      {/* Not a live region: the 'Invalid file' toast announces it; this stays for the eye. */}
      {problem && <p className="mt-2 text-sm text-red-700">{PHOTO_PROBLEM_TEXT[problem]}</p>}
    </div>
  );
}
