import { useState } from 'react';
import { ImageOff } from 'lucide-react';

/** A card's 4:3 preview (a thumbnail), lazy; a picture that fails to load says so instead of showing a broken image. */
export function PreviewImage({ src, alt }: { src: string; alt: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) {
    return (
      <span className="flex aspect-[4/3] w-full flex-col items-center justify-center gap-2 bg-stone-100 text-sm text-stone-600">
        <ImageOff aria-hidden className="size-6" />
        Image preview unavailable
      </span>
    );
  }
  return (
    <img src={src} alt={alt} width={400} height={300} loading="lazy" decoding="async" onError={() => setFailed(true)} className="aspect-[4/3] w-full bg-stone-100 object-cover" />
  );
}
