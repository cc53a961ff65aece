import { Link } from 'react-router';
import { contactEmail } from '../../lib/contact.ts';
import { Logo } from './logo.tsx';

const linkClass = 'inline-flex min-h-11 items-center rounded text-stone-600 hover:text-stone-900';

/** A footer link: a page of the app (`to`, client-side) or any other address (`href`). */
type FooterLink = { label: string; to: string } | { label: string; href: string };

function FooterNav({ label, title, links }: { label: string; title: string; links: FooterLink[] }) {
  return (
    <nav aria-label={label} className="text-sm">
      <h2 className="mb-2 font-semibold text-stone-900">{title}</h2>
      <ul>
        {links.map((link) => (
          <li key={link.label}>
            {'to' in link ? (
              <Link to={link.to} className={linkClass}>
                {link.label}
              </Link>
            ) : (
              <a href={link.href} className={linkClass}>
                {link.label}
              </a>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

const PRODUCT_LINKS: FooterLink[] = [
  { label: 'Features', href: '/#features' },
  { label: 'Pricing', href: '/#pricing' },
  { label: 'Examples', href: '/#demo' },
];

export function SiteFooter() {
  const email = contactEmail();
  const companyLinks: FooterLink[] = [
    { label: 'Terms', to: '/terms-and-conditions' },
    { label: 'Privacy', to: '/privacy-policy' },
    { label: email, href: `mailto:${email}` },
  ];
  return (
    <footer className="border-t border-stone-200 bg-stone-50">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 sm:grid-cols-3 sm:px-6">
        <div className="space-y-3">
          <Logo />
          <p className="text-sm text-stone-600">Virtual staging for real estate photos, ready in under 2 minutes.</p>
        </div>
        <FooterNav label="Product" title="Product" links={PRODUCT_LINKS} />
        <FooterNav label="Legal and contact" title="Company" links={companyLinks} />
      </div>
      <p className="border-t border-stone-200 py-6 text-center text-sm text-stone-600">
        &copy; {new Date().getFullYear()} RoomStager. All rights reserved.
      </p>
    </footer>
  );
}
