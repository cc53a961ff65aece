import { Logo } from '../../components/layout/logo.tsx';
import { PhoneMenuToggle } from '../../components/layout/phone-menu-toggle.tsx';
import { usePhoneMenu } from '../../components/layout/use-phone-menu.ts';
import { ButtonLink } from '../../components/ui/button.tsx';
import { useSession } from '../../lib/session.ts';

const anchors = [
  { href: '#features', label: 'Features' },
  { href: '#demo', label: 'Demo' },
  { href: '#pricing', label: 'Pricing' },
];

export function LandingHeader() {
  const { data: user } = useSession();
  const { open, setOpen, toggleRef } = usePhoneMenu();
  const actions = user
    ? [
        { to: '/generate', label: 'Generate', variant: 'ghost' as const },
        { to: '/gallery', label: 'Gallery', variant: 'primary' as const },
      ]
    : [
        { to: '/login', label: 'Sign In', variant: 'ghost' as const },
        { to: '/signup', label: 'Get Started', variant: 'primary' as const },
      ];

  return (
    <header className="sticky top-0 z-40 border-b border-stone-200/80 bg-white/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6">
        <Logo />
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {anchors.map((a) => (
            <a key={a.href} href={a.href} className="inline-flex min-h-11 items-center rounded-md px-3 text-sm font-medium text-stone-700 hover:text-stone-900">
              {a.label}
            </a>
          ))}
        </nav>
        <div className="hidden items-center gap-2 md:flex">
          {actions.map((a) => (
            <ButtonLink key={a.to} to={a.to} variant={a.variant}>
              {a.label}
            </ButtonLink>
          ))}
        </div>
        <PhoneMenuToggle
          open={open}
          onToggle={() => setOpen((o) => !o)}
          menuId="mobile-menu"
          toggleRef={toggleRef}
          className="md:hidden"
        />
      </div>
      {open && (
        <nav id="mobile-menu" aria-label="Mobile" className="border-t border-stone-200 bg-white px-4 pb-4 md:hidden">
          <ul className="flex flex-col py-2">
            {anchors.map((a) => (
              <li key={a.href}>
                <a href={a.href} onClick={() => setOpen(false)} className="flex min-h-11 items-center rounded-md px-2 font-medium text-stone-800">
                  {a.label}
                </a>
              </li>
            ))}
          </ul>
          <div className="grid gap-2">
            {actions.map((a) => (
              <ButtonLink key={a.to} to={a.to} variant={a.variant === 'ghost' ? 'outline' : a.variant} className="w-full">
                {a.label}
              </ButtonLink>
            ))}
          </div>
        </nav>
      )}
    </header>
  );
}
