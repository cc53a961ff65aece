const FALLBACK = 'support@roomstager.app';

/**
 * The contact e-mail is a server setting (CONTACT_EMAIL): the server writes it into the page's
 * <meta name="contact-email">, so one build serves every deployment.
 */
export function contactEmail(): string {
  if (typeof document === 'undefined') return '__CONTACT_EMAIL__';
  const value = document.querySelector('meta[name="contact-email"]')?.getAttribute('content');
  return value && !value.startsWith('__') ? value : FALLBACK;
}
