import type { SliderImage } from '../components/before-after-slider.tsx';

/** Photos under web/assets/rooms, turned into responsive AVIF/WebP/JPEG by web/scripts/images.ts. */
export const PHOTOS = {
  'living-before': { width: 1049, height: 1400 },
  'living-after': { width: 1049, height: 1400 },
  'dining-before': { width: 2250, height: 1500 },
  'dining-after': { width: 2250, height: 1500 },
  'kitchen-before': { width: 1500, height: 1000 },
  'kitchen-after': { width: 1500, height: 1000 },
  'bedroom-before': { width: 1500, height: 1000 },
  'bedroom-after': { width: 1500, height: 1000 },
  'style-modern': { width: 800, height: 600 },
  'style-traditional': { width: 800, height: 600 },
  'style-minimalist': { width: 800, height: 600 },
  'style-luxury': { width: 800, height: 600 },
} as const;

export type PhotoName = keyof typeof PHOTOS;

export const PHOTO_WIDTHS = [480, 800, 1200] as const;
export const PHOTO_FORMATS = ['avif', 'webp', 'jpg'] as const;

export function photoWidths(name: PhotoName): number[] {
  const intrinsic = PHOTOS[name].width;
  const widths = PHOTO_WIDTHS.filter((w) => w < intrinsic);
  return [...widths, Math.min(intrinsic, PHOTO_WIDTHS[PHOTO_WIDTHS.length - 1] ?? intrinsic)].filter(
    (w, i, all) => all.indexOf(w) === i,
  );
}

export const photoUrl = (name: PhotoName, width: number, format: (typeof PHOTO_FORMATS)[number]) =>
  `/img/${name}-${width}.${format}`;

export function responsivePhoto(name: PhotoName, alt: string): SliderImage {
  const widths = photoWidths(name);
  const srcSet = (format: (typeof PHOTO_FORMATS)[number]) => widths.map((w) => `${photoUrl(name, w, format)} ${w}w`).join(', ');
  return {
    alt,
    src: photoUrl(name, widths[Math.min(1, widths.length - 1)] ?? 800, 'jpg'),
    srcSet: srcSet('jpg'),
    sources: [
      { type: 'image/avif', srcSet: srcSet('avif') },
      { type: 'image/webp', srcSet: srcSet('webp') },
    ],
  };
}
