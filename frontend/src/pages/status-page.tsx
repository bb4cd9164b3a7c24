import { Clock, Download, LoaderCircle, RotateCcw } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { generationZipName, groupZipName, shortHash, statusImageFileName } from '../../../domain/download-names';
import { ImageCard } from '../components/image-card';
import { ShareActions, useBusy } from '../components/share-actions';
import { Alert } from '../components/ui/alert';
import { Button, ButtonLink } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { Progress } from '../components/ui/progress';
import { Skeleton } from '../components/ui/skeleton';
import { clearWizard } from '../features/wizard/wizard-state';
import type { ErasureReport, GeneratedImage } from '../lib/api';
import { useBrand } from '../lib/config';
import { downloadZip } from '../lib/downloads';
import {
  failedAlertText,
  generationProgress,
  groupByImageHash,
  isInProgress,
  queuedText,
  readyText,
} from '../lib/generation-state';
import { useDocumentTitle } from '../lib/head';
import { COPIED_MESSAGES, galleryLink, galleryShareText } from '../lib/share';
import { useGeneration } from '../lib/use-generation';
import { DeletedNotice, DeleteMyData, deletedSummary, erasedLines } from './delete-my-data';
import { OrderReceipt } from './order-receipt';

function Completed({ id, images }: { id: string; images: GeneratedImage[] }) {
  const brand = useBrand();
  const [zipping, runZip] = useBusy();
  const groups = groupByImageHash(images);
  const origin = window.location.origin;

  return (
    <div className="space-y-8">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-lg font-semibold">Generation complete! Here are your images:</p>
        {images.length > 0 && (
          <Button
            variant="gradient"
            size="lg"
            disabled={zipping}
            onClick={() => runZip(() => downloadZip(images, generationZipName(brand, id)))}
          >
            {zipping ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : <Download aria-hidden="true" />}
            {zipping ? 'Preparing Zip...' : 'Download All as Zip'}
          </Button>
        )}
      </div>
      <Alert variant="info" title="Download your images now">
        <span className="inline-flex items-center gap-1.5">
          <Clock aria-hidden="true" className="size-3.5" />
          Image links expire soon, so save your images to your device.
        </span>
      </Alert>

      {groups.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-border p-10 text-center text-muted-foreground">
          No images were returned.
        </p>
      ) : (
        groups.map((group, i) => (
          <section key={group.imageHash} aria-labelledby={`group-${group.imageHash}`} className="space-y-4">
            <div className="flex flex-col gap-3 border-b border-border pb-3 md:flex-row md:items-center md:justify-between">
              <h2 id={`group-${group.imageHash}`} className="text-xl font-bold">
                Photo {i + 1}{' '}
                <span className="text-sm font-normal text-muted-foreground">#{shortHash(group.imageHash)}</span>
              </h2>
              <ShareActions
                subject={`all styles of photo ${i + 1}`}
                downloadLabel="Download all"
                shareLabel="Share all styles"
                onDownload={() => downloadZip(group.images, groupZipName(brand, group.imageHash))}
                target={{
                  text: galleryShareText(brand),
                  url: galleryLink(origin, group.images[0]?.shareId ?? ''),
                  copiedMessage: COPIED_MESSAGES.gallery,
                }}
              />
            </div>
            <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {group.images.map((img) => (
                <li key={`${img.styleId}-${img.url}`}>
                  <ImageCard
                    image={img}
                    alt={`Your photo in the ${img.styleName} style`}
                    fileName={() => statusImageFileName(img.styleName, img.imageHash)}
                  />
                </li>
              ))}
            </ul>
          </section>
        ))
      )}
    </div>
  );
}

export default function StatusPage() {
  const { id } = useParams();
  const brand = useBrand();
  useDocumentTitle(`Your images | ${brand}`);
  const [erased, setErased] = useState<ErasureReport | null>(null);
  const state = useGeneration(id, !erased);
  // The order is placed: the wizard's kept choices are done with.
  useEffect(() => clearWizard(), []);

  let body: ReactNode;
  const { data, error, loading, gone } = state;
  if (erased) {
    body = <DeletedNotice lines={deletedSummary(erased)} />;
  } else if (!id) {
    body = (
      <Alert variant="destructive" title="Error">
        Generation ID is missing.
      </Alert>
    );
  } else if (!data && error) {
    body = (
      <div className="space-y-4">
        <Alert variant="destructive" title="Error">
          {error}
        </Alert>
        {/* The spec's error line stays; beneath it, what happened to a deleted order. */}
        {gone && <DeletedNotice lines={erasedLines(gone)} />}
      </div>
    );
  } else if (!data && loading) {
    body = (
      <div className="space-y-4" aria-busy="true">
        <p className="flex items-center gap-2 text-muted-foreground" role="status">
          <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
          Loading status...
        </p>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <Skeleton className="aspect-square" />
          <Skeleton className="aspect-square" />
          <Skeleton className="hidden aspect-square lg:block" />
        </div>
      </div>
    );
  } else if (!data) {
    body = <p className="text-muted-foreground">No generation data available.</p>;
  } else if (isInProgress(data.status)) {
    const progress = generationProgress(data);
    const queued = queuedText(data);
    body = (
      <Card className="space-y-5 p-6 sm:p-8" role="status">
        <div className="flex items-center gap-3">
          <LoaderCircle aria-hidden="true" className="size-6 shrink-0 animate-spin text-primary" />
          <p className="text-lg font-semibold">Your images are being generated. Please wait...</p>
        </div>
        <p className="font-medium" data-testid="ready-count">
          {readyText(progress)}
        </p>
        <Progress value={progress.percent} label="Generation progress" />
        {queued && (
          <p className="flex items-start gap-2 rounded-xl bg-accent/60 px-3 py-2 text-sm" data-testid="queued">
            <Clock aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
            {queued}
          </p>
        )}
        <p className="text-sm text-muted-foreground">
          Status: <span className="font-medium text-foreground capitalize">{data.status}</span> · {progress.percent}%
        </p>
      </Card>
    );
  } else if (data.status === 'completed') {
    body = <Completed id={id} images={data.images} />;
  } else if (data.status === 'failed') {
    body = (
      <Alert variant="destructive" title="Generation Failed">
        {failedAlertText(data)}
      </Alert>
    );
  } else {
    body = <Alert variant="info">Unknown status: {data.status}</Alert>;
  }

  return (
    <div className="container-page py-10 sm:py-14">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Your images</h1>
      {id && <p className="mt-1 text-sm break-all text-muted-foreground">Generation {id}</p>}
      <div className="mt-8">{body}</div>
      {data?.receipt && !erased && (
        <div className="mt-10">
          <OrderReceipt lines={data.receipt} />
        </div>
      )}
      {id && data && !isInProgress(data.status) && !erased && (
        <div className="mt-10">
          <DeleteMyData id={id} onDeleted={setErased} />
        </div>
      )}
      {(erased || gone || (data && !isInProgress(data.status))) && (
        <div className="mt-10 flex justify-center">
          <ButtonLink to="/" variant="outline" size="lg" icon={RotateCcw}>
            Generate Again
          </ButtonLink>
        </div>
      )}
    </div>
  );
}
