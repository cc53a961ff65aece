import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { ArrowLeft } from 'lucide-react';
import type { UpdateProfileRequest } from '@roomstager/contracts';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { formatCents, formatDate } from '../../lib/format.ts';
import { useLogout } from '../../lib/logout.ts';
import { useSession, type SessionUser } from '../../lib/session.ts';
import { useFocusWhenLost } from '../../lib/use-focus-when-lost.ts';
import { usePageMeta } from '../../lib/use-page-meta.ts';
import { useUpdateProfile, useUserStats } from './api.ts';

const inputClass =
  'mt-1 block min-h-11 w-full rounded-lg border border-stone-300 bg-white px-3 text-sm text-stone-900 placeholder:text-stone-500 focus-visible:border-accent-700 focus-visible:outline-2 focus-visible:outline-accent-700';

/** Only non-empty fields that differ from the current values are sent. */
export function profileChanges(user: Pick<SessionUser, 'username' | 'email'>, username: string, email: string): UpdateProfileRequest {
  const changes: UpdateProfileRequest = {};
  if (username.trim() && username.trim() !== user.username) changes.username = username.trim();
  if (email.trim() && email.trim() !== user.email) changes.email = email.trim();
  return changes;
}

function ProfileCard({ user }: { user: SessionUser }) {
  const [editing, setEditing] = useState(false);
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  // The editor and the Edit Profile button replace each other: focus moves to whichever is shown.
  const usernameInput = useRef<HTMLInputElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  useFocusWhenLost(editing, editing ? usernameInput : editButton);

  const update = useUpdateProfile({
    onSuccess: () => {
      toast({ title: 'Profile Updated', description: 'Your profile has been updated successfully.', variant: 'success' });
      setEditing(false);
    },
    onError: (error) => {
      toast({ title: 'Update Failed', description: error.message || 'Failed to update profile.', variant: 'destructive' });
    },
  });

  // The current values fill the fields (and stay as their placeholders once cleared).
  const startEditing = () => {
    setUsername(user.username);
    setEmail(user.email);
    setEditing(true);
  };

  const cancelOnEscape = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key !== 'Escape' || update.isPending) return;
    e.preventDefault();
    setEditing(false);
  };

  const save = (e: FormEvent) => {
    e.preventDefault();
    const changes = profileChanges(user, username, email);
    if (Object.keys(changes).length === 0) {
      setEditing(false);
      return;
    }
    update.mutate(changes);
  };

  return (
    <Card>
      <CardHeader className="flex-row items-center gap-4">
        <div aria-hidden className="flex size-16 shrink-0 items-center justify-center rounded-full bg-accent-700 text-2xl font-semibold text-white">
          {(user.username.trim()[0] ?? '?').toUpperCase()}
        </div>
        <div className="min-w-0">
          <CardTitle className="truncate">{user.username}</CardTitle>
          <p className="truncate text-sm text-stone-600">{user.email}</p>
        </div>
      </CardHeader>
      <CardContent>
        {editing ? (
          <form onSubmit={save} onKeyDown={cancelOnEscape} className="space-y-4">
            <div>
              <label htmlFor="profile-username" className="text-sm font-medium text-stone-800">
                Username
              </label>
              <input
                ref={usernameInput}
                id="profile-username"
                className={inputClass}
                value={username}
                placeholder={user.username}
                onChange={(e) => setUsername(e.target.value)}
                maxLength={50}
                autoComplete="username"
              />
            </div>
            <div>
              <label htmlFor="profile-email" className="text-sm font-medium text-stone-800">
                Email
              </label>
              <input id="profile-email" type="email" className={inputClass} value={email} placeholder={user.email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" />
            </div>
            <div className="flex flex-wrap gap-3">
              <Button type="submit" disabled={update.isPending}>
                {update.isPending ? 'Saving...' : 'Save Changes'}
              </Button>
              <Button variant="outline" onClick={() => setEditing(false)} disabled={update.isPending}>
                Cancel
              </Button>
            </div>
          </form>
        ) : (
          <div className="space-y-4">
            <dl className="grid gap-4 sm:grid-cols-3">
              <div>
                <dt className="text-sm text-stone-600">Username</dt>
                <dd className="mt-1 font-medium [overflow-wrap:anywhere]">{user.username}</dd>
              </div>
              <div>
                <dt className="text-sm text-stone-600">Email</dt>
                <dd className="mt-1 font-medium [overflow-wrap:anywhere]">{user.email}</dd>
              </div>
              <div>
                <dt className="text-sm text-stone-600">Member Since</dt>
                <dd className="mt-1 font-medium">{formatDate(user.createdAt)}</dd>
              </div>
            </dl>
            <Button ref={editButton} variant="outline" onClick={startEditing}>
              Edit Profile
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function StatsCard({ user }: { user: SessionUser }) {
  const { data: stats, isPending } = useUserStats();
  const rows: Array<[string, string]> = [
    ['Credits Available', String(user.credits)],
    ['Images Generated', stats ? String(stats.totalJobs) : '-'],
    ['Credits Purchased', stats ? String(stats.totalCredits) : '-'],
    ['Total Spent', stats ? formatCents(stats.totalSpent) : '-'],
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Account Stats</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <dl className="space-y-3" aria-busy={isPending}>
          {rows.map(([label, value]) => (
            <div key={label} className="flex items-center justify-between gap-4">
              <dt className="text-sm text-stone-600">{label}</dt>
              <dd className="font-semibold">{value}</dd>
            </div>
          ))}
        </dl>
        <ButtonLink to="/pricing" className="w-full">
          Buy More Credits
        </ButtonLink>
      </CardContent>
    </Card>
  );
}

/** Ends every session of the account, e.g. after signing in on a shared computer. */
function SessionsCard() {
  const logout = useLogout({ everywhere: true });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Sessions</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <p className="text-sm text-stone-600">Signed in on a shared computer or a lost phone? End every session of your account, this one included.</p>
        <Button variant="outline" className="w-full" disabled={logout.isPending} onClick={() => logout.mutate()}>
          {logout.isPending ? 'Signing out...' : 'Sign out everywhere'}
        </Button>
      </CardContent>
    </Card>
  );
}

export default function ProfilePage() {
  usePageMeta('/profile');
  const { data: user } = useSession();
  if (!user) return null;
  return (
    <>
      <ButtonLink to="/generate" variant="ghost" className="-ml-3">
        <ArrowLeft aria-hidden className="size-4" />
        Back
      </ButtonLink>
      <h1 className="mt-4 text-3xl font-bold tracking-tight">Profile Settings</h1>
      <div className="mt-8 grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <ProfileCard user={user} />
        </div>
        <div className="space-y-6">
          <StatsCard user={user} />
          <SessionsCard />
        </div>
      </div>
    </>
  );
}
