import { AlertCircle } from 'lucide-react';
import { ButtonLink } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { usePageMeta } from '../lib/use-page-meta.ts';

export function NotFoundPage() {
  usePageMeta('notFound');
  return (
    <main className="flex min-h-screen items-center justify-center bg-stone-50 px-4">
      <Card className="w-full max-w-md p-8">
        <div className="flex items-center gap-3">
          <AlertCircle aria-hidden className="size-8 text-red-700" />
          <h1 className="text-2xl font-bold">Page Not Found</h1>
        </div>
        <p className="mt-4 text-sm text-stone-600">
          Did you forget to add the page to the router? No route in <code className="rounded bg-stone-100 px-1">web/src/app/routes.tsx</code> matches this
          address.
        </p>
        <ButtonLink to="/" variant="outline" className="mt-6">
          Back to Home
        </ButtonLink>
      </Card>
    </main>
  );
}
