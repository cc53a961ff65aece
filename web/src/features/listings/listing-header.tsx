import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Pencil } from 'lucide-react';
import { LISTING_TITLE_MAX_LENGTH, type Listing, type Style } from '@roomstager/contracts';
import { StyleSelect } from '../../components/style-select.tsx';
import { Button } from '../../components/ui/button.tsx';
import { fieldClass } from '../../components/ui/field.ts';
import { toast } from '../../components/ui/use-toast.ts';
import { cn } from '../../lib/cn.ts';
import { STYLE_INFO } from '../../lib/style-info.ts';
import { useFocusWhenLost } from '../../lib/use-focus-when-lost.ts';
import { useUpdateListing } from './api.ts';

/** The listing's title and style, and the form that changes them (Enter saves, Escape cancels). */
export function ListingHeader({ listing }: { listing: Listing }) {
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState('');
  const [style, setStyle] = useState<Style>(listing.style);
  const update = useUpdateListing(listing.id);
  // Saving or cancelling takes the form away: focus goes back to the button that opened it.
  const editButton = useRef<HTMLButtonElement>(null);
  const titleInput = useRef<HTMLInputElement>(null);
  useFocusWhenLost(editing, editing ? titleInput : editButton);

  const save = (e?: FormEvent) => {
    e?.preventDefault();
    const next = title.trim();
    const changes = { ...(next !== listing.title ? { title: next } : {}), ...(style !== listing.style ? { style } : {}) };
    if (Object.keys(changes).length === 0) {
      setEditing(false);
      return;
    }
    update.mutate(changes, {
      onSuccess: () => {
        toast({
          title: 'Listing updated',
          description: changes.style ? 'Photos staged from now on use the new style and another furniture set.' : 'The listing has been updated.',
          variant: 'success',
        });
        setEditing(false);
      },
      onError: (error) => toast({ title: 'Update failed', description: error.message, variant: 'destructive' }),
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    setEditing(false);
  };

  if (!editing) {
    return (
      <div className="min-w-0">
        <div className="flex items-start gap-2">
          <h1 className="min-w-0 text-3xl font-bold tracking-tight break-words">{listing.title}</h1>
          <Button
            ref={editButton}
            variant="ghost"
            size="sm"
            aria-label="Edit title and style"
            onClick={() => {
              setTitle(listing.title);
              setStyle(listing.style);
              setEditing(true);
            }}
          >
            <Pencil aria-hidden className="size-4" />
          </Button>
        </div>
        <p className="mt-1 text-stone-600">
          {STYLE_INFO[listing.style].name} style: {STYLE_INFO[listing.style].description.toLowerCase()}
        </p>
      </div>
    );
  }
  return (
    <form onSubmit={save} onKeyDown={onKeyDown} className="flex w-full flex-wrap items-end gap-3" aria-label="Edit listing">
      <div className="min-w-0 flex-1 basis-64">
        <label htmlFor="edit-listing-title" className="text-sm font-medium text-stone-800">
          Title
        </label>
        <input
          ref={titleInput}
          id="edit-listing-title"
          className={cn('mt-1', fieldClass)}
          value={title}
          maxLength={LISTING_TITLE_MAX_LENGTH}
          required
          autoFocus
          onChange={(e) => setTitle(e.target.value)}
          disabled={update.isPending}
        />
      </div>
      <div className="basis-48">
        <label htmlFor="edit-listing-style" className="text-sm font-medium text-stone-800">
          Style
        </label>
        <StyleSelect id="edit-listing-style" className="mt-1" value={style} onChange={setStyle} disabled={update.isPending} />
      </div>
      <div className="flex gap-2">
        <Button type="submit" disabled={update.isPending || !title.trim()}>
          Save
        </Button>
        <Button variant="outline" onClick={() => setEditing(false)} disabled={update.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
