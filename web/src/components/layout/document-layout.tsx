import type { ReactNode } from 'react';
import { ArrowLeft } from 'lucide-react';
import { ButtonLink } from '../ui/button.tsx';
import { MainContent, SkipLink } from './main-content.tsx';
import { SimpleHeader } from './simple-header.tsx';
import { SiteFooter } from './site-footer.tsx';

/** A public page of text (the legal pages, the API reference): the simple top bar, a way home, the title and the footer. */
export function DocumentLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <SkipLink />
      <SimpleHeader />
      <MainContent className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
        <ButtonLink to="/" variant="ghost" className="-ml-3">
          <ArrowLeft aria-hidden className="size-4" />
          Back to Home
        </ButtonLink>
        <h1 className="mt-6 text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
        <div className="mt-4">{children}</div>
      </MainContent>
      <SiteFooter />
    </>
  );
}
