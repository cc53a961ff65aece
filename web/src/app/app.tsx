import { lazy, Suspense, useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { useToasts } from '../components/ui/use-toast.ts';
import { createQueryClient } from '../lib/query-client.ts';
import { AppRoutes } from './routes.tsx';

// The toast UI (Radix) loads with the first toast, keeping it off the landing page's critical path.
const Toaster = lazy(() => import('../components/ui/toaster.tsx').then((m) => ({ default: m.Toaster })));

function LazyToaster() {
  const [needed, setNeeded] = useState(false);
  const toasts = useToasts();
  if (!needed && toasts.length > 0) setNeeded(true);
  return needed ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <AppRoutes />
      <LazyToaster />
    </QueryClientProvider>
  );
}
