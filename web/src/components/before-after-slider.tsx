import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { ImageOff } from 'lucide-react';
import { cn } from '../lib/cn.ts';

export interface SliderImage {
  src: string;
  alt: string;
  /** Modern formats first, e.g. [{ type: 'image/avif', srcSet }, { type: 'image/webp', srcSet }]. */
  sources?: Array<{ type: string; srcSet: string }>;
  srcSet?: string;
}

interface BeforeAfterSliderProps {
  before: SliderImage;
  after: SliderImage;
  /**
   * Intrinsic size of the photos, so the box is reserved before they load. Without it the box takes
   * the before photo's own shape once that has loaded (4:3 until then).
   */
  width?: number;
  height?: number;
  /** The tallest the box may be, as a CSS length; its width then follows the photos' shape. */
  maxHeight?: string;
  sizes?: string;
  /** The hero image loads eagerly; everything else lazily. */
  priority?: boolean;
  label?: string;
  className?: string;
  /** 'contain' shows the whole photo (letterboxed) when its shape differs from the box. */
  fit?: 'cover' | 'contain';
  /**
   * Show a placeholder until both photos have loaded (default). Prerendered pages turn it off:
   * their photos must paint before any JavaScript runs.
   */
  holdUntilLoaded?: boolean;
}

/** A result photo shown whole in the viewport, with room for a heading above it. */
export const PHOTO_MAX_HEIGHT = '70svh';

export const clampPercent = (value: number): number => Math.min(100, Math.max(0, value));
const KEY_STEP = 5;

export interface Shape {
  width: number;
  height: number;
}
const PLACEHOLDER_SHAPE: Shape = { width: 4, height: 3 };

/**
 * The box's shape: the size given, else the before photo's natural size (when it belongs to the
 * current photo, not to one shown earlier), else 4:3 while that photo loads.
 */
export function boxShape(given: Partial<Shape>, natural: (Shape & { src: string }) | null, src: string): Shape {
  if (given.width && given.height) return { width: given.width, height: given.height };
  if (natural?.src === src) return { width: natural.width, height: natural.height };
  return PLACEHOLDER_SHAPE;
}

export type PhotoStatus = 'loading' | 'loaded' | 'failed';
type Settled = Exclude<PhotoStatus, 'loading'>;

/**
 * The status an image already has: one prerendered or cached may have loaded (or failed) before
 * React attached onLoad and onError, and then no event comes.
 */
export function currentStatus(img: Pick<HTMLImageElement, 'complete' | 'naturalWidth'>): PhotoStatus {
  if (!img.complete) return 'loading';
  return img.naturalWidth > 0 ? 'loaded' : 'failed';
}

/** The status of `src` among the outcomes seen on one side (kept by src, so a late event of an earlier src cannot stand for a new one). */
export const statusOf = (outcomes: ReadonlyMap<string, Settled>, src: string): PhotoStatus => outcomes.get(src) ?? 'loading';

/**
 * The comparison shows once both photos have loaded or failed: with one still loading, the
 * other shows through its transparent layer and looks like both sides.
 */
export const comparisonReady = (before: PhotoStatus, after: PhotoStatus): boolean => before !== 'loading' && after !== 'loading';

function usePhotoStatus(src: string): [PhotoStatus, (src: string, status: Settled) => void] {
  const [outcomes, setOutcomes] = useState<ReadonlyMap<string, Settled>>(() => new Map());
  const onSettled = useCallback(
    (settledSrc: string, status: Settled) => setOutcomes((m) => (m.get(settledSrc) === status ? m : new Map(m).set(settledSrc, status))),
    [],
  );
  return [statusOf(outcomes, src), onSettled];
}

/**
 * Runs `then` once the image is decoded: with decoding="async" a loaded image can still paint a
 * frame after it is shown. A refused decode (src changed, or the browser gave up) runs it too.
 */
function whenDecoded(img: HTMLImageElement, then: () => void): void {
  img.decode().then(then, then);
}

function Photo({
  image,
  side,
  width,
  height,
  sizes,
  priority,
  fit,
  onSettled,
  onNaturalSize,
}: {
  image: SliderImage;
  side: 'Before' | 'After';
  width: number;
  height: number;
  sizes?: string;
  priority?: boolean;
  fit: 'cover' | 'contain';
  onSettled: (src: string, status: Settled) => void;
  onNaturalSize?: (size: Shape & { src: string }) => void;
}) {
  const imgRef = useRef<HTMLImageElement>(null);
  const { src } = image;
  const loaded = useCallback(
    (img: HTMLImageElement) =>
      whenDecoded(img, () => {
        onNaturalSize?.({ src, width: img.naturalWidth, height: img.naturalHeight });
        onSettled(src, 'loaded');
      }),
    [src, onSettled, onNaturalSize],
  );
  // Checked on mount and on a new src, for images that finished before the handlers were attached.
  useEffect(() => {
    const img = imgRef.current;
    const status = img ? currentStatus(img) : 'loading';
    if (img && status === 'loaded') loaded(img);
    else if (status === 'failed') onSettled(src, 'failed');
  }, [src, onSettled, loaded]);
  return (
    <picture>
      {image.sources?.map((s) => <source key={s.type} type={s.type} srcSet={s.srcSet} sizes={sizes} />)}
      <img
        ref={imgRef}
        src={image.src}
        srcSet={image.srcSet}
        sizes={sizes}
        alt={image.alt}
        width={width}
        height={height}
        loading={priority ? 'eager' : 'lazy'}
        fetchPriority={priority && side === 'After' ? 'high' : 'auto'}
        decoding="async"
        draggable={false}
        onLoad={(e) => loaded(e.currentTarget)}
        onError={() => onSettled(src, 'failed')}
        className={cn('absolute inset-0 size-full select-none', fit === 'contain' ? 'object-contain' : 'object-cover')}
      />
    </picture>
  );
}

function Unavailable({ text, alt }: { text: string; alt: string }) {
  return (
    <div className="absolute inset-0 flex flex-col items-center justify-center gap-2 bg-stone-100 p-4 text-center text-sm text-stone-600">
      <ImageOff aria-hidden className="size-6" />
      <span>{text}</span>
      <span className="text-xs text-stone-500">{alt}</span>
    </div>
  );
}

/**
 * Before/after comparison: starts at 50%, follows mouse and touch drags,
 * arrow keys move it, always clamped to 0-100%. A placeholder of the photos' shape stands in
 * until both have loaded or failed (comparisonReady); a failed one says so, with its alt text.
 * The box is as wide as its container allows, and as tall as the photos' shape makes it (never
 * above maxHeight), so a portrait photo is not shrunk into a landscape frame.
 */
export function BeforeAfterSlider({
  before,
  after,
  width,
  height,
  sizes,
  priority,
  label = 'Before and after comparison',
  className,
  fit = 'cover',
  holdUntilLoaded = true,
  maxHeight,
}: BeforeAfterSliderProps) {
  const [position, setPosition] = useState(50);
  const [natural, setNatural] = useState<(Shape & { src: string }) | null>(null);
  const shape = boxShape({ width, height }, natural, before.src);
  const [beforeStatus, onBeforeSettled] = usePhotoStatus(before.src);
  const [afterStatus, onAfterSettled] = usePhotoStatus(after.src);
  const ready = !holdUntilLoaded || comparisonReady(beforeStatus, afterStatus);
  const boxRef = useRef<HTMLDivElement>(null);
  const dragging = useRef(false);

  const moveTo = useCallback((clientX: number) => {
    const box = boxRef.current?.getBoundingClientRect();
    if (!box || box.width === 0) return;
    setPosition(clampPercent(((clientX - box.left) / box.width) * 100));
  }, []);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    dragging.current = true;
    e.currentTarget.setPointerCapture(e.pointerId);
    moveTo(e.clientX);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (dragging.current) moveTo(e.clientX);
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    dragging.current = false;
    if (e.currentTarget.hasPointerCapture(e.pointerId)) e.currentTarget.releasePointerCapture(e.pointerId);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? KEY_STEP * 2 : KEY_STEP;
    const next: Record<string, number> = {
      ArrowLeft: position - step,
      ArrowDown: position - step,
      ArrowRight: position + step,
      ArrowUp: position + step,
      Home: 0,
      End: 100,
      PageDown: position - 25,
      PageUp: position + 25,
    };
    const value = next[e.key];
    if (value === undefined) return;
    e.preventDefault();
    setPosition(clampPercent(value));
  };

  return (
    <div
      ref={boxRef}
      className={cn('relative mx-auto w-full touch-pan-y overflow-hidden rounded-xl bg-stone-200 select-none', className)}
      style={{
        aspectRatio: `${shape.width} / ${shape.height}`,
        maxWidth: maxHeight && `calc(${maxHeight} * ${shape.width} / ${shape.height})`,
      }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      data-testid="before-after-slider"
      data-position={Math.round(position)}
      aria-busy={!ready}
    >
      {/* Rendered (so the photos load) but invisible, and out of the accessibility tree, until ready. */}
      <div className={cn('absolute inset-0', !ready && 'invisible')}>
        {afterStatus === 'failed' ? (
          <Unavailable text="After image not available" alt={after.alt} />
        ) : (
          <Photo image={after} side="After" width={shape.width} height={shape.height} sizes={sizes} priority={priority} fit={fit} onSettled={onAfterSettled} />
        )}
        <div className="absolute inset-0" style={{ clipPath: `inset(0 ${100 - position}% 0 0)` }}>
          {beforeStatus === 'failed' ? (
            <Unavailable text="Before image not available" alt={before.alt} />
          ) : (
            <Photo
              image={before}
              side="Before"
              width={shape.width}
              height={shape.height}
              sizes={sizes}
              priority={priority}
              fit={fit}
              onSettled={onBeforeSettled}
              onNaturalSize={setNatural}
            />
          )}
        </div>
        <span className="pointer-events-none absolute top-3 left-3 rounded-md bg-stone-900/75 px-2 py-1 text-xs font-semibold text-white">
          Before
        </span>
        <span className="pointer-events-none absolute top-3 right-3 rounded-md bg-stone-900/75 px-2 py-1 text-xs font-semibold text-white">
          After
        </span>
        <div className="pointer-events-none absolute inset-y-0 w-0.5 -translate-x-1/2 bg-white shadow" style={{ left: `${position}%` }} />
        <div
          role="slider"
          tabIndex={0}
          aria-label={label}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(position)}
          aria-valuetext={`${Math.round(position)}% before`}
          onKeyDown={onKeyDown}
          className="absolute top-1/2 flex size-11 -translate-x-1/2 -translate-y-1/2 cursor-ew-resize items-center justify-center rounded-full border-2 border-white bg-accent-700 text-white shadow-lg focus-visible:outline-3 focus-visible:outline-white"
          style={{ left: `${position}%` }}
        >
          <svg aria-hidden viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round">
            <path d="m9 18-6-6 6-6M15 6l6 6-6 6" />
          </svg>
        </div>
      </div>
      {!ready && (
        <div className="absolute inset-0 animate-pulse bg-stone-500/30">
          <span className="sr-only">Loading the before and after photos</span>
        </div>
      )}
    </div>
  );
}
