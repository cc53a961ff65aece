import { toast } from '../../components/ui/use-toast.ts';
import { fetchImage } from './api.ts';

/** Downloads an image by URL under the given file name, with its toasts. */
export async function downloadImage(url: string, filename: string): Promise<void> {
  try {
    const blob = await fetchImage(url);
    const href = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = href;
    a.download = filename;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(href), 10_000);
    toast({ title: 'Download started', description: `${filename} is being downloaded` });
  } catch {
    toast({ title: 'Download Failed', description: 'Could not download the image. Please try again.', variant: 'destructive' });
  }
}
