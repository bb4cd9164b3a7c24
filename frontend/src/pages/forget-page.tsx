/**
 * /forget: erase everything tied to an e-mail address. Without a token, a form that e-mails the address a one-time
 * link (the same answer whatever the address holds); with the link's token, a confirmation and then what was deleted.
 * An order's status link deletes that one order's data without any of this (DeleteMyData on the status page).
 */
import { MailCheck, ShieldCheck, Trash2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useParams } from 'react-router';
import { EmailField, useEmail } from '../components/email-field';
import { Alert } from '../components/ui/alert';
import { Button } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { type AddressErasureReport, confirmErasure, requestErasure } from '../lib/api';
import { useBrand } from '../lib/config';
import { useDocumentTitle } from '../lib/head';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function erasureSummary(r: AddressErasureReport): string[] {
  const lines = [
    `${plural(r.orders_erased, 'order', 'orders')} erased: ${plural(r.photos_deleted, 'photo', 'photos')} and ${plural(r.files_deleted, 'stored file', 'stored files')} deleted.`,
    `${plural(r.signups_deleted, 'launch sign-up', 'launch sign-ups')} deleted.`,
  ];
  if (r.orders_in_progress)
    lines.push(
      `${plural(r.orders_in_progress, 'order is', 'orders are')} still being made: open this link again once ${r.orders_in_progress === 1 ? 'it is' : 'they are'} ready.`,
    );
  lines.push('Kept for accounting only: the amount, date and payment reference of paid orders.');
  return lines;
}

function AskForLink() {
  const [value, setValue] = useState('');
  const email = useEmail(value, setValue);
  const [state, setState] = useState<'idle' | 'busy' | 'sent'>('idle');
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!email.validate()) return;
    setState('busy');
    try {
      await requestErasure(value.trim());
      setState('sent');
    } catch (err) {
      email.setServerError(err instanceof Error ? err.message : 'An unknown error occurred.');
      setState('idle');
    }
  }
  if (state === 'sent')
    return (
      <Alert variant="info" title="Check your inbox">
        If we hold anything for {value.trim()}, a link to delete it is on its way. It works for 24 hours, once.
      </Alert>
    );
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
      <EmailField email={email} help="We send a link to this address: only its owner can confirm." />
      <Button type="submit" disabled={state === 'busy' || !value.trim()} icon={MailCheck}>
        {state === 'busy' ? 'Sending...' : 'Send me the link'}
      </Button>
    </form>
  );
}

function Confirm({ token }: { token: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [report, setReport] = useState<AddressErasureReport | null>(null);
  async function erase() {
    setBusy(true);
    setError(null);
    try {
      setReport(await confirmErasure(token));
    } catch (err) {
      setError(err instanceof Error && err.message ? err.message : 'An unknown error occurred.');
    }
    setBusy(false);
  }
  if (report)
    return (
      <Alert variant="info" title="Your data is deleted">
        <ul className="mt-1 space-y-1">
          {erasureSummary(report).map((line) => (
            <li key={line} className="flex gap-2">
              <ShieldCheck aria-hidden="true" className="mt-0.5 size-3.5 shrink-0" />
              <span>{line}</span>
            </li>
          ))}
        </ul>
      </Alert>
    );
  return (
    <div className="space-y-4">
      <p className="font-medium">
        Delete every order's photos, images and share links, and every launch sign-up, tied to your e-mail address? This
        cannot be undone: download anything you want to keep first.
      </p>
      <Button variant="destructive" disabled={busy} onClick={() => void erase()} icon={Trash2}>
        {busy ? 'Deleting...' : 'Yes, delete my data'}
      </Button>
      {error && <Alert variant="destructive">{error}</Alert>}
    </div>
  );
}

export default function ForgetPage() {
  const { token } = useParams();
  const brand = useBrand();
  useDocumentTitle(`Delete my data | ${brand}`);
  return (
    <div className="container-page max-w-2xl py-10 sm:py-14">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Delete my data</h1>
      <p className="mt-2 text-muted-foreground">
        Everything {brand} keeps about an e-mail address: orders, their photos and images, and launch sign-ups.
      </p>
      <Card className="mt-8 p-5 sm:p-6">{token ? <Confirm token={token} /> : <AskForLink />}</Card>
    </div>
  );
}
