import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { Check, Clock, CreditCard } from 'lucide-react';
import { BeforeAfterSlider } from '../../components/before-after-slider.tsx';
import { MainContent, SkipLink } from '../../components/layout/main-content.tsx';
import { SiteFooter } from '../../components/layout/site-footer.tsx';
import { PackGrid } from '../../components/pack-card.tsx';
import { ButtonLink } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { PHOTOS, responsivePhoto } from '../../lib/responsive-image.ts';
import { useSession } from '../../lib/session.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { usePageMeta } from '../../lib/use-page-meta.ts';
import { DEMO_EXAMPLES, FEATURES } from './content.ts';
import { LandingHeader } from './landing-header.tsx';

function useTrialTarget(): string {
  const { data: user } = useSession();
  return user ? '/generate' : '/signup';
}

function Hero() {
  const trialTarget = useTrialTarget();
  return (
    <section className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-12 sm:px-6 md:grid-cols-2 md:py-20">
      <div>
        <p className="mb-4 inline-flex rounded-full bg-accent-50 px-3 py-1 text-sm font-medium text-accent-800">
          Virtual staging for real estate
        </p>
        <h1 className="text-4xl font-bold tracking-tight text-stone-900 sm:text-5xl">
          Transform empty rooms into spaces buyers fall in love with
        </h1>
        <p className="mt-5 text-lg leading-8 text-stone-600">
          Upload a photo of an empty room, pick a style, and get it back professionally furnished. Ready in under 2
          minutes, for a fraction of the cost of physical staging.
        </p>
        <div className="mt-8 flex flex-wrap items-center gap-4">
          <ButtonLink to={trialTarget} size="lg">
            Start Free Trial
          </ButtonLink>
        </div>
        <ul className="mt-6 flex flex-wrap gap-x-6 gap-y-2 text-sm text-stone-600">
          <li className="inline-flex items-center gap-2">
            <CreditCard aria-hidden className="size-4 text-accent-700" />
            No credit card required
          </li>
          <li className="inline-flex items-center gap-2">
            <Clock aria-hidden className="size-4 text-accent-700" />
            Results in 2 minutes
          </li>
        </ul>
      </div>
      <div className="mx-auto w-full max-w-md">
        <div className="relative">
          <BeforeAfterSlider
            priority
            holdUntilLoaded={false}
            before={responsivePhoto('living-before', 'Empty living room with tiled floor and a balcony door')}
            after={responsivePhoto('living-after', 'The same living room staged in the modern style')}
            width={PHOTOS['living-before'].width}
            height={PHOTOS['living-before'].height}
            sizes="(min-width: 768px) 448px, 100vw"
          />
          <span className="absolute bottom-3 left-3 rounded-md bg-white/90 px-2 py-1 text-xs font-semibold text-stone-800 shadow">
            Staged in 1m 47s
          </span>
        </div>
        <p className="mt-3 text-center text-sm text-stone-600">Drag to explore the transformation</p>
      </div>
    </section>
  );
}

interface SectionProps {
  /** The fragment the header's links jump to (#features); the title's id is derived from it. */
  id: string;
  title: string;
  intro: string;
  /** On a stone background, alternating with the plain sections. */
  shaded?: boolean;
  children: ReactNode;
}

/** A section below the hero: its centred title and introduction, then its content. */
function Section({ id, title, intro, shaded = false, children }: SectionProps) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      className={shaded ? 'scroll-mt-16 bg-stone-50 py-16 sm:py-20' : 'scroll-mt-16 py-16 sm:py-20'}
    >
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <h2 id={`${id}-title`} className="text-center text-3xl font-bold tracking-tight">
          {title}
        </h2>
        <p className="mx-auto mt-3 max-w-2xl text-center text-stone-600">{intro}</p>
        {children}
      </div>
    </section>
  );
}

function Features() {
  return (
    <Section
      id="features"
      title="Everything you need to stage a listing"
      intro="Built for agents, property managers and sellers who need great photos today, not next week."
      shaded
    >
      <div className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {FEATURES.map((f) => (
          <Card key={f.title} className="p-6">
            <f.icon aria-hidden className="size-8 text-accent-700" />
            <h3 className="mt-4 text-lg font-semibold">{f.title}</h3>
            <p className="mt-2 text-sm leading-6 text-stone-600">{f.text}</p>
          </Card>
        ))}
      </div>
    </Section>
  );
}

function Demo() {
  const [active, setActive] = useState(1);
  // The landing page is prerendered: its tabs switch nothing until React has hydrated it.
  const hydrated = useHydrated();
  const tabsRef = useRef<Array<HTMLButtonElement | null>>([]);
  const baseId = useId();
  const example = DEMO_EXAMPLES[active] ?? DEMO_EXAMPLES[0];
  if (!example) return null;

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const delta = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!delta) return;
    e.preventDefault();
    const next = (active + delta + DEMO_EXAMPLES.length) % DEMO_EXAMPLES.length;
    // Committed at once, so the tab is the active one, and enabled, before it takes the focus:
    // just after hydration the others are still disabled, and a disabled tab takes no focus.
    flushSync(() => setActive(next));
    tabsRef.current[next]?.focus();
  };

  return (
    <Section id="demo" title="See the difference" intro="Pick a room and drag the slider.">
      <div role="tablist" aria-label="Example rooms" onKeyDown={onKeyDown} className="mt-8 flex flex-wrap justify-center gap-2">
        {DEMO_EXAMPLES.map((ex, i) => (
          <button
            key={ex.id}
            ref={(el) => {
              tabsRef.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${ex.id}`}
            aria-selected={i === active}
            aria-controls={`${baseId}-panel`}
            tabIndex={i === active ? 0 : -1}
            disabled={!hydrated && i !== active}
            onClick={() => setActive(i)}
            className={
              i === active
                ? 'min-h-11 rounded-full bg-accent-700 px-4 text-sm font-medium text-white'
                : 'min-h-11 rounded-full bg-stone-100 px-4 text-sm font-medium text-stone-700 hover:bg-stone-200'
            }
          >
            {ex.tab}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${baseId}-panel`}
        aria-labelledby={`${baseId}-tab-${example.id}`}
        className="mt-10 grid items-center gap-10 md:grid-cols-2"
      >
        <div className="mx-auto w-full max-w-lg">
          <BeforeAfterSlider
            key={example.id}
            holdUntilLoaded={false}
            before={responsivePhoto(example.before, `${example.title}, empty`)}
            after={responsivePhoto(example.after, `${example.title}, staged`)}
            width={PHOTOS[example.before].width}
            height={PHOTOS[example.before].height}
            sizes="(min-width: 768px) 512px, 100vw"
            label={`${example.tab} before and after`}
          />
          {example.caption && <p className="mt-2 text-center text-sm text-stone-600">{example.caption}</p>}
        </div>
        <div>
          <h3 className="text-2xl font-semibold">{example.title}</h3>
          <p className="mt-3 leading-7 text-stone-600">{example.description}</p>
          <ul className="mt-6 space-y-3">
            {example.bullets.map((b) => (
              <li key={b} className="flex items-start gap-3 text-stone-700">
                <Check aria-hidden className="mt-0.5 size-5 shrink-0 text-accent-700" />
                {b}
              </li>
            ))}
          </ul>
        </div>
      </div>
      <TryIt />
    </Section>
  );
}

function TryIt() {
  const trialTarget = useTrialTarget();
  return (
    <Card className="mt-16 bg-accent-50 p-8 text-center">
      <h3 className="text-2xl font-semibold">Try it yourself</h3>
      <p className="mx-auto mt-2 max-w-xl text-stone-700">
        Stage your own empty room with free trial credits. No credit card required.
      </p>
      <ButtonLink to={trialTarget} size="lg" className="mt-6">
        Free Trial
      </ButtonLink>
    </Card>
  );
}

function Pricing() {
  return (
    <Section
      id="pricing"
      title="Simple, pay-per-use pricing"
      intro="One credit stages one photo. Buy a pack once; no monthly fees or commitments."
      shaded
    >
      <PackGrid
        heading="h3"
        price={(pack) => (
          <p className="mt-4">
            <span className="text-4xl font-bold">${pack.priceUsd}</span>
            <span className="text-stone-600"> / {pack.credits} credits</span>
          </p>
        )}
        action={(pack) => (
          <ButtonLink to="/pricing" variant={pack.popular ? 'primary' : 'outline'} className="mt-8 w-full" aria-label={`Get Started with ${pack.name}`}>
            Get Started
          </ButtonLink>
        )}
      />
    </Section>
  );
}

export default function LandingPage() {
  usePageMeta('/');
  return (
    <>
      <SkipLink />
      <LandingHeader />
      <MainContent>
        <Hero />
        <Features />
        <Demo />
        <Pricing />
      </MainContent>
      <SiteFooter />
    </>
  );
}
