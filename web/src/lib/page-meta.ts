/** Title and description of every page, used by the prerender step and at run time alike. */
export interface PageMeta {
  title: string;
  description: string;
}

const SITE = 'RoomStager';

export const PAGE_META = {
  '/': {
    title: `${SITE} - Virtual staging for empty rooms in under 2 minutes`,
    description:
      'Upload a photo of an empty room, pick modern, traditional, minimalist or luxury, and get it back professionally staged in under 2 minutes. Free trial, no credit card required.',
  },
  '/login': { title: `Sign in - ${SITE}`, description: 'Sign in to RoomStager with your Google account.' },
  '/signup': {
    title: `Create your account - ${SITE}`,
    description: 'Create a RoomStager account with Google and get free trial credits to stage your first rooms.',
  },
  '/pricing': {
    title: `Pricing - ${SITE}`,
    description: 'One-time credit packs for virtual staging: Starter, Professional and Enterprise. Credits never expire, no monthly fees.',
  },
  '/privacy-policy': { title: `Privacy Policy - ${SITE}`, description: 'How RoomStager collects, uses and protects your information.' },
  '/terms-and-conditions': {
    title: `Terms and Conditions - ${SITE}`,
    description: 'The terms that govern your use of RoomStager, its credits and its AI-staged images.',
  },
  '/generate': { title: `Stage Your Property - ${SITE}`, description: 'Upload an empty room and stage it in the style you choose.' },
  '/gallery': { title: `Your Gallery - ${SITE}`, description: 'Your staged photos.' },
  '/listings': { title: `Listings - ${SITE}`, description: 'Your listings: every photo of a property, staged together in one style.' },
  '/credits': { title: `Credits & Billing - ${SITE}`, description: 'Your credit balance and history.' },
  '/profile': { title: `Profile Settings - ${SITE}`, description: 'Your RoomStager profile.' },
  '/api-keys': { title: `API Keys - ${SITE}`, description: 'Keys for the RoomStager API and the webhook signing secret.' },
  '/docs/api': {
    title: `API reference - ${SITE}`,
    description: 'Stage photos from your own systems with the RoomStager API: keys, jobs, webhooks, with a curl example for each call.',
  },
  '/checkout': { title: `Checkout - ${SITE}`, description: 'Buy a RoomStager credit pack.' },
  notFound: { title: `Page Not Found - ${SITE}`, description: 'This page does not exist.' },
} satisfies Record<string, PageMeta>;

export type PageKey = keyof typeof PAGE_META;
