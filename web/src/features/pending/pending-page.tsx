import { usePageMeta } from '../../app/use-page-meta.ts';
import type { PageKey } from '../../app/page-meta.ts';
import { ButtonLink } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { useSession } from '../auth/use-session.ts';

interface PendingPageProps {
  meta: PageKey;
  title: string;
}

/** A signed-in screen whose feature has not shipped yet: says so plainly instead of pretending. */
function PendingPage({ meta, title }: PendingPageProps) {
  usePageMeta(meta);
  const { data: user } = useSession();
  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      <Card className="mt-8 max-w-2xl p-6">
        <p className="text-stone-700">
          This part of RoomStager is not available yet. Your account is ready
          {user ? ` and your ${user.credits} ${user.credits === 1 ? 'credit is' : 'credits are'} waiting` : ''}.
        </p>
        <ButtonLink to="/profile" variant="outline" className="mt-6">
          Go to your profile
        </ButtonLink>
      </Card>
    </>
  );
}

export const GeneratePage = () => <PendingPage meta="/generate" title="Stage Your Property" />;
export const GalleryPage = () => <PendingPage meta="/gallery" title="Your Gallery" />;
export const CheckoutPage = () => <PendingPage meta="/checkout" title="Checkout" />;
