import { Link } from 'react-router';
import { contactEmail } from '../../lib/contact.ts';
import { Logo } from './logo.tsx';

const linkClass = 'inline-flex min-h-11 items-center rounded text-stone-600 hover:text-stone-900';

export function SiteFooter() {
  const email = contactEmail();
  return (
    <footer className="border-t border-stone-200 bg-stone-50">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 sm:grid-cols-3 sm:px-6">
        <div className="space-y-3">
          <Logo />
          <p className="text-sm text-stone-600">Virtual staging for real estate photos, ready in under 2 minutes.</p>
        </div>
        <nav aria-label="Product" className="text-sm">
          <h2 className="mb-2 font-semibold text-stone-900">Product</h2>
          <ul>
            <li>
              <a href="/#features" className={linkClass}>
                Features
              </a>
            </li>
            <li>
              <a href="/#pricing" className={linkClass}>
                Pricing
              </a>
            </li>
            <li>
              <a href="/#demo" className={linkClass}>
                Examples
              </a>
            </li>
          </ul>
        </nav>
        <nav aria-label="Legal and contact" className="text-sm">
          <h2 className="mb-2 font-semibold text-stone-900">Company</h2>
          <ul>
            <li>
              <Link to="/terms-and-conditions" className={linkClass}>
                Terms
              </Link>
            </li>
            <li>
              <Link to="/privacy-policy" className={linkClass}>
                Privacy
              </Link>
            </li>
            <li>
              <a href={`mailto:${email}`} className={linkClass}>
                {email}
              </a>
            </li>
          </ul>
        </nav>
      </div>
      <p className="border-t border-stone-200 py-6 text-center text-sm text-stone-600">
        &copy; {new Date().getFullYear()} RoomStager. All rights reserved.
      </p>
    </footer>
  );
}
