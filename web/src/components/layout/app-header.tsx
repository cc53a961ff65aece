import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Coins, CreditCard, KeyRound, LogOut, User } from 'lucide-react';
import { Link, NavLink } from 'react-router';
import type { SessionUser } from '@roomstager/contracts';
import { cn } from '../../lib/cn.ts';
import { useLogout } from '../../lib/logout.ts';
import { Logo } from './logo.tsx';
import { PhoneMenuToggle } from './phone-menu-toggle.tsx';
import { usePhoneMenu } from './use-phone-menu.ts';

const navLinks = [
  { to: '/generate', label: 'Generate' },
  { to: '/gallery', label: 'Gallery' },
  { to: '/listings', label: 'Listings' },
];

const navClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'inline-flex min-h-11 items-center rounded-md px-3 text-sm font-medium',
    isActive ? 'bg-accent-50 text-accent-800' : 'text-stone-700 hover:bg-stone-100 hover:text-stone-900',
  );

const initial = (username: string) => (username.trim()[0] ?? '?').toUpperCase();

function CreditsBalance({ credits }: { credits: number }) {
  return (
    <Link
      to="/credits"
      className="inline-flex min-h-11 items-center gap-2 rounded-md px-3 text-sm font-medium text-stone-700 hover:bg-stone-100"
      aria-label={`${credits} ${credits === 1 ? 'credit' : 'credits'}, Credits & Billing`}
    >
      <Coins aria-hidden className="size-4 text-accent-700" />
      <span data-testid="credits-balance">{credits}</span> credits
    </Link>
  );
}

const itemClass =
  'flex min-h-10 cursor-pointer items-center gap-2 rounded-md px-2 text-sm text-stone-800 outline-none data-[highlighted]:bg-stone-100';

/** The signed-in top bar. */
export function AppHeader({ user }: { user: SessionUser }) {
  const { open, setOpen, toggleRef } = usePhoneMenu();
  const logout = useLogout();

  return (
    <header className="sticky top-0 z-40 border-b border-stone-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <div className="flex items-center gap-6">
          <Logo />
          <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
            {navLinks.map((l) => (
              <NavLink key={l.to} to={l.to} className={navClass}>
                {l.label}
              </NavLink>
            ))}
          </nav>
        </div>
        <div className="hidden items-center gap-2 md:flex">
          <CreditsBalance credits={user.credits} />
          {/* Not modal: a modal menu locks scrolling with an injected <style>, which the CSP forbids. */}
          <DropdownMenu.Root modal={false}>
            <DropdownMenu.Trigger
              className="inline-flex size-11 items-center justify-center rounded-full bg-accent-700 text-base font-semibold text-white hover:bg-accent-800"
              aria-label={`Account menu for ${user.username}`}
            >
              <span aria-hidden data-testid="avatar-initial">
                {initial(user.username)}
              </span>
            </DropdownMenu.Trigger>
            <DropdownMenu.Portal>
              <DropdownMenu.Content align="end" sideOffset={8} className="z-50 min-w-56 rounded-xl border border-stone-200 bg-white p-1 shadow-lg">
                <DropdownMenu.Label className="px-2 py-2">
                  <p className="text-sm font-semibold text-stone-900">{user.username}</p>
                  <p className="truncate text-xs text-stone-600">{user.email}</p>
                </DropdownMenu.Label>
                <DropdownMenu.Separator className="my-1 h-px bg-stone-200" />
                <DropdownMenu.Item asChild className={itemClass}>
                  <Link to="/profile">
                    <User aria-hidden className="size-4" />
                    Profile
                  </Link>
                </DropdownMenu.Item>
                <DropdownMenu.Item asChild className={itemClass}>
                  <Link to="/credits">
                    <CreditCard aria-hidden className="size-4" />
                    Credits &amp; Billing
                  </Link>
                </DropdownMenu.Item>
                <DropdownMenu.Item asChild className={itemClass}>
                  <Link to="/api-keys">
                    <KeyRound aria-hidden className="size-4" />
                    API Keys
                  </Link>
                </DropdownMenu.Item>
                <DropdownMenu.Separator className="my-1 h-px bg-stone-200" />
                <DropdownMenu.Item className={itemClass} onSelect={() => logout.mutate()}>
                  <LogOut aria-hidden className="size-4" />
                  Logout
                </DropdownMenu.Item>
              </DropdownMenu.Content>
            </DropdownMenu.Portal>
          </DropdownMenu.Root>
        </div>
        <div className="flex items-center gap-1 md:hidden">
          <span className="text-sm font-medium text-stone-700" aria-label={`${user.credits} credits`}>
            <Coins aria-hidden className="mr-1 inline size-4 text-accent-700" />
            {user.credits}
          </span>
          <PhoneMenuToggle open={open} onToggle={() => setOpen((o) => !o)} menuId="app-mobile-menu" toggleRef={toggleRef} />
        </div>
      </div>
      {open && (
        <nav id="app-mobile-menu" aria-label="Mobile" className="border-t border-stone-200 bg-white px-4 pb-4 md:hidden">
          <p className="py-3 text-sm text-stone-600">
            Signed in as <span className="font-semibold text-stone-900">{user.username}</span> &middot; {user.credits} credits
          </p>
          <ul className="flex flex-col" onClick={() => setOpen(false)}>
            {[...navLinks, { to: '/profile', label: 'Profile' }, { to: '/credits', label: 'Credits & Billing' }, { to: '/api-keys', label: 'API Keys' }].map((l) => (
              <li key={l.to}>
                <NavLink to={l.to} className={navClass}>
                  {l.label}
                </NavLink>
              </li>
            ))}
            <li>
              <button type="button" className={navClass({ isActive: false })} onClick={() => logout.mutate()}>
                Logout
              </button>
            </li>
          </ul>
        </nav>
      )}
    </header>
  );
}
