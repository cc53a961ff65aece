import type { ReactNode } from 'react';
import { ArrowLeft } from 'lucide-react';
import { MainContent, SkipLink } from '../../components/layout/main-content.tsx';
import { SimpleHeader } from '../../components/layout/simple-header.tsx';
import { SiteFooter } from '../../components/layout/site-footer.tsx';
import { ButtonLink } from '../../components/ui/button.tsx';
import { contactEmail } from '../../lib/contact.ts';
import { usePageMeta } from '../../lib/use-page-meta.ts';
import { PrivacyPolicyContent } from './privacy-policy-content.tsx';
import { TermsContent } from './terms-content.tsx';

function LegalLayout({ title, children }: { title: string; children: ReactNode }) {
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

export function PrivacyPolicyPage() {
  usePageMeta('/privacy-policy');
  return (
    <LegalLayout title="Privacy Policy">
      <PrivacyPolicyContent contactEmail={contactEmail()} />
    </LegalLayout>
  );
}

export function TermsPage() {
  usePageMeta('/terms-and-conditions');
  return (
    <LegalLayout title="Terms and Conditions">
      <TermsContent contactEmail={contactEmail()} />
    </LegalLayout>
  );
}
