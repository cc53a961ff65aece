import { Logo } from './logo.tsx';

/** The quiet top bar of the public pages other than the landing page. */
export function SimpleHeader() {
  return (
    <header className="border-b border-stone-200 bg-white">
      <div className="mx-auto flex h-16 max-w-6xl items-center px-4 sm:px-6">
        <Logo />
      </div>
    </header>
  );
}
