import { useRef, useState, type FormEvent } from 'react';
import { Check, Copy, KeyRound } from 'lucide-react';
import { API_PACK_ID, CREDIT_PACKS, type ApiKey, type CreatedApiKey } from '@roomstager/contracts';
import { PackFeatures } from '../../components/pack-card.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { formatDate } from '../../lib/format.ts';
import { usePageMeta } from '../../lib/use-page-meta.ts';
import { useApiKeys, useCreateApiKey, useRevokeApiKey, useWebhookSecret } from './api.ts';

const inputClass =
  'mt-1 block min-h-11 w-full rounded-lg border border-stone-300 bg-white px-3 text-sm text-stone-900 placeholder:text-stone-500 focus-visible:border-accent-700 focus-visible:outline-2 focus-visible:outline-accent-700';

const enterprise = CREDIT_PACKS.find((p) => p.id === API_PACK_ID);

/** A secret with a Copy button that says when it has copied. */
function SecretValue({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      toast({ title: 'Copy failed', description: 'Select the text and copy it yourself.', variant: 'destructive' });
    }
  };
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
      <code aria-label={label} className="min-w-0 flex-1 rounded-lg bg-stone-100 px-3 py-2 font-mono text-sm break-all text-stone-900">
        {value}
      </code>
      <Button variant="outline" onClick={copy} aria-label={copied ? `${label} copied` : `Copy ${label}`}>
        {copied ? <Check aria-hidden className="size-4 text-green-700" /> : <Copy aria-hidden className="size-4" />}
        {copied ? 'Copied' : 'Copy'}
      </Button>
    </div>
  );
}

function CreateKeyCard({ onCreated }: { onCreated: (created: CreatedApiKey) => void }) {
  const [name, setName] = useState('');
  const create = useCreateApiKey();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(name.trim(), {
      onSuccess: (created) => {
        setName('');
        onCreated(created);
      },
      onError: (error) => toast({ title: 'Key not created', description: error.message, variant: 'destructive' }),
    });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Create a key</CardTitle>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <div className="flex-1">
            <label htmlFor="api-key-name" className="text-sm font-medium text-stone-800">
              Key name
            </label>
            <input
              id="api-key-name"
              className={inputClass}
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="Listing sync server"
              maxLength={100}
              required
              autoComplete="off"
            />
          </div>
          <Button type="submit" disabled={create.isPending || !name.trim()}>
            <KeyRound aria-hidden className="size-4" />
            {create.isPending ? 'Creating...' : 'Create key'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

/** The new key, shown this once; closing the dialog forgets it. */
function NewKeyDialog({ created, onClose, returnFocus }: { created: CreatedApiKey; onClose: () => void; returnFocus: () => HTMLElement | null }) {
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      returnFocus={returnFocus}
      title={`Key "${created.key.name}" created`}
      description="Copy it now and keep it in a secret store. It will not be shown again."
      className="max-w-xl"
    >
      <div className="mt-4 space-y-4">
        <SecretValue label="API key" value={created.secret} />
        <Button onClick={onClose}>Done</Button>
      </div>
    </Dialog>
  );
}

function RevokeDialog({ apiKey, onClose, returnFocus }: { apiKey: ApiKey; onClose: () => void; returnFocus: () => HTMLElement | null }) {
  const revoke = useRevokeApiKey();
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      returnFocus={returnFocus}
      title={`Revoke "${apiKey.name}"?`}
      description={`Calls with ${apiKey.prefix}... will be refused at once. This cannot be undone.`}
      className="max-w-lg"
    >
      <div className="mt-5 flex flex-wrap gap-3">
        <Button
          variant="destructive"
          disabled={revoke.isPending}
          onClick={() =>
            revoke.mutate(apiKey.id, {
              onSuccess: () => {
                toast({ title: 'Key revoked', description: `${apiKey.name} can no longer call the API.` });
                onClose();
              },
              onError: (error) => toast({ title: 'Revoke failed', description: error.message, variant: 'destructive' }),
            })
          }
        >
          {revoke.isPending ? 'Revoking...' : 'Revoke key'}
        </Button>
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
      </div>
    </Dialog>
  );
}

function KeyList({ keys }: { keys: ApiKey[] }) {
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const openers = useRef(new Map<string, HTMLButtonElement>());
  const heading = useRef<HTMLHeadingElement>(null);
  return (
    <Card>
      <CardHeader>
        <h3 ref={heading} tabIndex={-1} className="text-lg font-semibold text-stone-900">
          Your keys
        </h3>
      </CardHeader>
      <CardContent>
        {keys.length === 0 ? (
          <p className="text-sm text-stone-600">No keys yet.</p>
        ) : (
          <ul className="divide-y divide-stone-200" aria-label="API keys">
            {keys.map((k) => (
              <li key={k.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <p className="font-medium [overflow-wrap:anywhere]">{k.name}</p>
                  <p className="text-sm text-stone-600">
                    <code className="font-mono">{k.prefix}...</code> &middot; Created {formatDate(k.createdAt)} &middot;{' '}
                    {k.lastUsedAt ? `Last used ${formatDate(k.lastUsedAt)}` : 'Never used'}
                  </p>
                </div>
                <Button
                  ref={(el) => {
                    if (el) openers.current.set(k.id, el);
                  }}
                  variant="outline"
                  className="text-red-700 hover:bg-red-50"
                  aria-label={`Revoke ${k.name}`}
                  onClick={() => setRevoking(k)}
                >
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      {revoking && (
        <RevokeDialog
          apiKey={revoking}
          onClose={() => setRevoking(null)}
          // A revoked key's button is gone: focus goes to the list's heading then.
          returnFocus={() => (openers.current.get(revoking.id)?.isConnected ? (openers.current.get(revoking.id) ?? null) : heading.current)}
        />
      )}
    </Card>
  );
}

function WebhookSecretCard() {
  const [shown, setShown] = useState(false);
  const secret = useWebhookSecret(shown);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Webhook signing secret</CardTitle>
      </CardHeader>
      <CardContent className="space-y-3">
        <p className="text-sm text-stone-600">Webhook deliveries carry a RoomStager-Signature made with this secret, so your server can tell they come from us.</p>
        {shown && secret.data ? (
          <SecretValue label="Webhook secret" value={secret.data.secret} />
        ) : (
          <>
            {secret.isError && (
              <p role="alert" className="text-sm text-red-700">
                The secret could not be loaded: {secret.error.message}
              </p>
            )}
            <Button variant="outline" onClick={() => (shown ? void secret.refetch() : setShown(true))} disabled={secret.isFetching}>
              {secret.isFetching ? 'Loading...' : secret.isError ? 'Try again' : 'Show secret'}
            </Button>
          </>
        )}
      </CardContent>
    </Card>
  );
}

function Upsell() {
  return (
    <Card className="max-w-xl">
      <CardHeader>
        <CardTitle>API access comes with the Enterprise pack</CardTitle>
        <p className="text-sm text-stone-600">Stage photos from your own systems with keys, a versioned API and signed webhooks. The Enterprise pack includes:</p>
      </CardHeader>
      <CardContent className="space-y-5">
        {enterprise && <PackFeatures pack={enterprise} />}
        <div className="flex flex-wrap gap-3">
          <ButtonLink to="/pricing">See pricing</ButtonLink>
          <ButtonLink to="/docs/api" variant="outline">
            Read the API reference
          </ButtonLink>
        </div>
      </CardContent>
    </Card>
  );
}

export default function ApiKeysPage() {
  usePageMeta('/api-keys');
  const { data, isPending, error } = useApiKeys();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const nameInput = () => document.getElementById('api-key-name');
  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight">API Keys</h1>
      <p className="mt-2 text-stone-600">
        Keys let your own systems call the RoomStager API. See the{' '}
        <a href="/docs/api" className="font-medium text-accent-700 underline">
          API reference
        </a>
        .
      </p>
      <div className="mt-8 space-y-6" aria-busy={isPending}>
        {error && <Alert variant="destructive">{error.message}</Alert>}
        {data && !data.enabled && <Upsell />}
        {data?.enabled && (
          <>
            <CreateKeyCard onCreated={setCreated} />
            <KeyList keys={data.keys} />
            <WebhookSecretCard />
          </>
        )}
      </div>
      {created && <NewKeyDialog created={created} onClose={() => setCreated(null)} returnFocus={nameInput} />}
    </>
  );
}
