/**
 * "Delete my photos and images" on the status page (whose link is the order's capability): a confirmation, then
 * POST /api/generation/{id}/delete, then what was deleted and what is kept, in words. A later visit to the page reads
 * a 410 from the status call and says the same in short: deleted at the customer's request, and when.
 */
import { LoaderCircle, ShieldCheck, Trash2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { deleteOrderData, type ErasureReport, type GenerationGone } from '../../lib/api';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const KEPT_FOR_ACCOUNTING = 'Kept for accounting only: the amount, date and payment reference of this order.';

/** The moment in the visitor's own locale and time zone ("May 12, 2025 at 2:03 PM"), or as given if unreadable. */
export function localDateTime(iso: string, locale?: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(locale, { dateStyle: 'long', timeStyle: 'short' });
}

export function deletedSummary(r: ErasureReport): string[] {
  const lines = [
    `${plural(r.photos_deleted, 'photo', 'photos')} and ${plural(r.files_deleted, 'stored file', 'stored files')} (uploads, previews, generated images and share pictures) deleted.`,
  ];
  if (r.photos_kept)
    lines.push(
      `${plural(r.photos_kept, 'photo is', 'photos are')} kept because another of your orders, or someone else who uploaded the same picture, still uses it.`,
    );
  if (r.email_removed) lines.push('Your e-mail address is removed from this order.');
  if (r.signups_deleted)
    lines.push(`${plural(r.signups_deleted, 'launch sign-up', 'launch sign-ups')} with your e-mail address deleted.`);
  lines.push(KEPT_FOR_ACCOUNTING);
  return lines;
}

/** What a later visit to a deleted order's status page says: the server's words, then when, then what is kept. */
export function erasedLines(gone: GenerationGone): ReactNode[] {
  return [
    gone.detail,
    <>
      Deleted on <time dateTime={gone.erased_at}>{localDateTime(gone.erased_at)}</time>.
    </>,
    KEPT_FOR_ACCOUNTING,
  ];
}

export function DeleteMyData({ id, onDeleted }: { id: string; onDeleted: (report: ErasureReport) => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function remove() {
    setBusy(true);
    setError(null);
    try {
      onDeleted(await deleteOrderData(id));
    } catch (err) {
      setError(err instanceof Error && err.message ? err.message : 'An unknown error occurred.');
      setBusy(false);
    }
  }

  return (
    <Card className="p-5 sm:p-6">
      <h2 className="text-lg font-semibold">Your data</h2>
      <p className="mt-1 text-sm text-muted-foreground">
        You can delete the photos you uploaded and the images made from them, with your e-mail address, at any time.
      </p>
      {!confirming ? (
        <Button variant="outline" className="mt-4" onClick={() => setConfirming(true)} icon={Trash2}>
          Delete my photos and images
        </Button>
      ) : (
        <div className="mt-4 rounded-xl border border-destructive/40 bg-destructive/5 p-4">
          <p id="delete-confirm" className="font-medium">
            Delete your photos, their images and your e-mail address from this order? This cannot be undone: download
            anything you want to keep first.
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Button variant="destructive" disabled={busy} onClick={() => void remove()}>
              {busy ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <Trash2 aria-hidden="true" />}
              Yes, delete them
            </Button>
            <Button variant="outline" disabled={busy} onClick={() => setConfirming(false)}>
              Keep them
            </Button>
          </div>
        </div>
      )}
      {error && (
        <Alert variant="destructive" className="mt-4">
          {error}
        </Alert>
      )}
    </Card>
  );
}

export function DeletedNotice({ lines }: { lines: ReactNode[] }) {
  return (
    <Alert variant="info" title="Your photos and images are deleted">
      <ul className="mt-1 space-y-1">
        {lines.map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list of sentences, never reordered
          <li key={i} className="flex gap-2">
            <ShieldCheck aria-hidden="true" className="mt-0.5 size-3.5 shrink-0" />
            <span>{line}</span>
          </li>
        ))}
      </ul>
    </Alert>
  );
}
