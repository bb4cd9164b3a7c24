import { Download, LoaderCircle, Share2 } from 'lucide-react';
import { useState } from 'react';
import { browserShareEnv, facebookShareUrl, shareLink, twitterShareUrl } from '../lib/share';
import { FacebookIcon, XTwitterIcon } from './icons';
import { Button, ExternalButtonLink } from './ui/button';
import { cn } from './ui/cn';

/** Runs an async action while showing a busy state on the button. */
export function useBusy() {
  const [busy, setBusy] = useState(false);
  const run = async (fn: () => Promise<void>) => {
    if (busy) return;
    setBusy(true);
    try {
      await fn();
    } finally {
      setBusy(false);
    }
  };
  return [busy, run] as const;
}

/** The networks a share button links to, with the link for a text and a URL. */
export const SOCIAL_SHARES = [
  { network: 'Twitter', href: twitterShareUrl, Icon: XTwitterIcon },
  { network: 'Facebook', href: (_text: string, url: string) => facebookShareUrl(url), Icon: FacebookIcon },
] as const;

export interface ShareTarget {
  text: string;
  url: string;
  title?: string;
  copiedMessage: string;
}

/** Download, native share (or copy), Twitter and Facebook buttons for an image or a gallery. */
export function ShareActions({
  onDownload,
  downloadLabel = 'Download',
  shareLabel = 'Share',
  target,
  subject,
  compact = false,
  className,
}: {
  onDownload: () => Promise<void>;
  downloadLabel?: string;
  shareLabel?: string;
  target: ShareTarget;
  /** Used in accessible names, e.g. 'Anime style'. */
  subject: string;
  compact?: boolean;
  className?: string;
}) {
  const [downloading, runDownload] = useBusy();
  const size = compact ? 'sm' : 'md';
  return (
    <div className={cn('flex flex-wrap items-center', compact ? 'gap-1.5' : 'gap-2', className)}>
      <Button
        variant="primary"
        size={size}
        onClick={() => runDownload(onDownload)}
        disabled={downloading}
        aria-label={`${downloadLabel}: ${subject}`}
      >
        {downloading ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <Download aria-hidden="true" />}
        {downloadLabel}
      </Button>
      <Button
        variant="outline"
        size={compact ? 'icon' : size}
        className={compact ? 'size-9' : undefined}
        onClick={() =>
          shareLink(
            browserShareEnv(),
            { title: target.title, text: target.text, url: target.url },
            target.copiedMessage,
          )
        }
        aria-label={`${shareLabel}: ${subject}`}
        title={shareLabel}
      >
        <Share2 aria-hidden="true" />
        {!compact && shareLabel}
      </Button>
      {SOCIAL_SHARES.map(({ network, href, Icon }) => (
        <ExternalButtonLink
          key={network}
          href={href(target.text, target.url)}
          variant="outline"
          size="icon"
          className={compact ? 'size-9' : undefined}
          aria-label={`Share ${subject} on ${network}`}
          title={`Share on ${network}`}
        >
          <Icon />
        </ExternalButtonLink>
      ))}
    </div>
  );
}
