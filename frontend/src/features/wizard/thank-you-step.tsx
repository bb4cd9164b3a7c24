import { PartyPopper, RotateCcw } from 'lucide-react';
import { SOCIAL_SHARES } from '../../components/share-actions';
import { Button, ExternalButtonLink } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { APP_SHARE_TEXT } from '../../lib/share';

export default function ThankYouStep({ onRestart }: { onRestart: () => void }) {
  const siteUrl = window.location.origin;
  return (
    <section className="container-page flex justify-center py-12 sm:py-20">
      <Card className="w-full max-w-xl p-8 text-center sm:p-10">
        <span className="brand-gradient mx-auto flex size-16 items-center justify-center rounded-2xl text-white shadow-md">
          <PartyPopper aria-hidden="true" className="size-8" />
        </span>
        <h1 className="mt-6 text-3xl font-bold tracking-tight sm:text-4xl">Thank You!</h1>
        <p className="mt-3 text-muted-foreground">Keep an eye on your inbox for our launch announcement!</p>
        <p className="mt-8 text-sm font-semibold">Tell your friends</p>
        <div className="mt-3 flex flex-col justify-center gap-3 sm:flex-row">
          {SOCIAL_SHARES.map(({ network, href, Icon }) => (
            <ExternalButtonLink key={network} href={href(APP_SHARE_TEXT, siteUrl)} variant="outline">
              <Icon />
              Share on {network}
            </ExternalButtonLink>
          ))}
        </div>
        <Button variant="gradient" size="lg" className="mt-8 w-full sm:w-auto" onClick={onRestart} icon={RotateCcw}>
          Create Another Image
        </Button>
      </Card>
    </section>
  );
}
