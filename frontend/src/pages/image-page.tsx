import { LoaderCircle, Wand2 } from 'lucide-react';
import { useParams } from 'react-router';
import { imageFileName } from '../../../domain/download-names';
import { ShareActions } from '../components/share-actions';
import { Alert } from '../components/ui/alert';
import { ButtonLink } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { Skeleton } from '../components/ui/skeleton';
import { getImage } from '../lib/api';
import { STAND_IN_LABEL, STAND_IN_NOTE, useBrand, useGenerativeStandIn } from '../lib/config';
import { downloadImage } from '../lib/downloads';
import { useDocumentTitle } from '../lib/head';
import { COPIED_MESSAGES, styleLink, styleShareText } from '../lib/share';
import { errorText, useQuery } from '../lib/use-query';

export function TryYourOwn() {
  return (
    <ButtonLink to="/" variant="gradient" size="lg" icon={Wand2}>
      Try Your Own
    </ButtonLink>
  );
}

export default function ImagePage() {
  const { id = '', style = '' } = useParams();
  const brand = useBrand();
  const standIn = useGenerativeStandIn();
  const state = useQuery(`image/${id}/${style}`, () => getImage(id, style));
  useDocumentTitle(state.status === 'ready' ? `${state.data.styleName} style | ${brand}` : brand);

  if (state.status === 'loading') {
    return (
      <div className="container-page grid gap-8 py-10 sm:py-14 md:grid-cols-2" aria-busy="true">
        <h1 className="sr-only">Cartoon image</h1>
        <Skeleton className="aspect-square" />
        <div className="space-y-4">
          <p className="flex items-center gap-2 text-muted-foreground" role="status">
            <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
            Loading...
          </p>
          <Skeleton className="h-9 w-1/2" />
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-4 w-4/5" />
        </div>
      </div>
    );
  }
  if (state.status === 'error') {
    return (
      <div className="container-page space-y-8 py-10 sm:py-14">
        <h1 className="sr-only">Cartoon image</h1>
        <Alert variant="destructive" title="Error">
          {errorText(state.error, 'Failed to load image.')}
        </Alert>
        <TryYourOwn />
      </div>
    );
  }
  const image = state.data;
  return (
    <div className="container-page py-10 sm:py-14">
      <div className="grid items-start gap-8 md:grid-cols-2 md:gap-12">
        <Card className="overflow-hidden">
          <img
            src={image.url}
            // biome-ignore lint/a11y/noRedundantAlt: the visitor's photo is the subject; "photo" says what is shown, not that it is an image
            alt={`Photo transformed into the ${image.styleName} style`}
            className="w-full object-contain"
          />
        </Card>
        <div>
          <p className="text-sm font-semibold tracking-wide text-primary uppercase">Cartoon style</p>
          <h1 className="mt-1 text-3xl font-bold tracking-tight sm:text-4xl">{image.styleName}</h1>
          {image.description && (
            <p className="mt-4 text-lg leading-relaxed text-muted-foreground">{image.description}</p>
          )}
          {standIn && image.aiGenerated && (
            <Alert className="mt-6" title={STAND_IN_LABEL}>
              {STAND_IN_NOTE}
            </Alert>
          )}
          <ShareActions
            className="mt-8"
            subject={`${image.styleName} style`}
            onDownload={() =>
              downloadImage(image.url, (blob) => imageFileName(image.styleName, image.imageHash, blob.type))
            }
            target={{
              title: `${image.styleName} | ${brand}`,
              text: styleShareText(image.styleName),
              url: styleLink(window.location.origin, image.shareId, image.styleId),
              copiedMessage: COPIED_MESSAGES.style,
            }}
          />
          <div className="mt-10 rounded-2xl border border-border bg-muted/50 p-6">
            <p className="font-semibold">Want one of your own?</p>
            <p className="mt-1 text-sm text-muted-foreground">Upload a photo and pick your favourite styles.</p>
            <div className="mt-4">
              <TryYourOwn />
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}
