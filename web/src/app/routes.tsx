import { lazy, Suspense, type ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { NotFoundPage } from './not-found-page.tsx';

// Each screen is its own chunk, so the landing page ships only what it shows.
const LandingPage = lazy(() => import('../features/landing/landing-page.tsx'));
const LoginPage = lazy(() => import('../features/auth/sign-in-page.tsx').then((m) => ({ default: m.LoginPage })));
const SignupPage = lazy(() => import('../features/auth/sign-in-page.tsx').then((m) => ({ default: m.SignupPage })));
const PricingPage = lazy(() => import('../features/pricing/pricing-page.tsx').then((m) => ({ default: m.PricingPage })));
const PrivacyPolicyPage = lazy(() => import('../features/legal/legal-page.tsx').then((m) => ({ default: m.PrivacyPolicyPage })));
const TermsPage = lazy(() => import('../features/legal/legal-page.tsx').then((m) => ({ default: m.TermsPage })));
const ProfilePage = lazy(() => import('../features/profile/profile-page.tsx'));
const GeneratePage = lazy(() => import('../features/generate/generate-page.tsx'));
const GalleryPage = lazy(() => import('../features/gallery/gallery-page.tsx'));
const ListingsPage = lazy(() => import('../features/listings/listings-page.tsx'));
const ListingPage = lazy(() => import('../features/listings/listing-page.tsx'));
const CreditsPage = lazy(() => import('../features/credits/credits-page.tsx'));
const ApiKeysPage = lazy(() => import('../features/api-keys/api-keys-page.tsx'));
const ApiDocsPage = lazy(() => import('../features/api-docs/api-docs-page.tsx'));
const CheckoutPage = lazy(() => import('../features/checkout/checkout-page.tsx'));
const SignedInLayout = lazy(() => import('../components/layout/signed-in-layout.tsx').then((m) => ({ default: m.SignedInLayout })));

/** Source module of each prerendered route, so the prerender step can preload its chunk. */
export const ROUTE_MODULES: Record<string, string> = {
  '/': 'src/features/landing/landing-page.tsx',
  '/login': 'src/features/auth/sign-in-page.tsx',
  '/signup': 'src/features/auth/sign-in-page.tsx',
  '/pricing': 'src/features/pricing/pricing-page.tsx',
  '/privacy-policy': 'src/features/legal/legal-page.tsx',
  '/terms-and-conditions': 'src/features/legal/legal-page.tsx',
  '/docs/api': 'src/features/api-docs/api-docs-page.tsx',
};

function PageFallback() {
  return (
    <div className="flex min-h-screen items-center justify-center" role="status" aria-label="Loading">
      <div className="size-8 animate-spin rounded-full border-4 border-stone-200 border-t-accent-700" />
    </div>
  );
}

const signedIn = (page: ReactNode) => <SignedInLayout>{page}</SignedInLayout>;

export function AppRoutes() {
  return (
    <Suspense fallback={<PageFallback />}>
      <Routes>
        <Route path="/" element={<LandingPage />} />
        <Route path="/login" element={<LoginPage />} />
        <Route path="/signup" element={<SignupPage />} />
        <Route path="/pricing" element={<PricingPage />} />
        <Route path="/privacy-policy" element={<PrivacyPolicyPage />} />
        <Route path="/terms-and-conditions" element={<TermsPage />} />
        <Route path="/generate" element={signedIn(<GeneratePage />)} />
        <Route path="/gallery" element={signedIn(<GalleryPage />)} />
        <Route path="/listings" element={signedIn(<ListingsPage />)} />
        <Route path="/listings/:id" element={signedIn(<ListingPage />)} />
        <Route path="/credits" element={signedIn(<CreditsPage />)} />
        <Route path="/profile" element={signedIn(<ProfilePage />)} />
        <Route path="/api-keys" element={signedIn(<ApiKeysPage />)} />
        <Route path="/docs/api" element={<ApiDocsPage />} />
        <Route path="/checkout/:amount" element={signedIn(<CheckoutPage />)} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Suspense>
  );
}
