import { DocumentLayout } from '../../components/layout/document-layout.tsx';
import { contactEmail } from '../../lib/contact.ts';
import { usePageMeta } from '../../lib/use-page-meta.ts';
import { PrivacyPolicyContent } from './privacy-policy-content.tsx';
import { TermsContent } from './terms-content.tsx';

export function PrivacyPolicyPage() {
  usePageMeta('/privacy-policy');
  return (
    <DocumentLayout title="Privacy Policy">
      <PrivacyPolicyContent contactEmail={contactEmail()} />
    </DocumentLayout>
  );
}

export function TermsPage() {
  usePageMeta('/terms-and-conditions');
  return (
    <DocumentLayout title="Terms and Conditions">
      <TermsContent contactEmail={contactEmail()} />
    </DocumentLayout>
  );
}
