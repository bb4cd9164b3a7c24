import { Clock, Download, LoaderCircle } from 'lucide-react';
import { generationZipName, groupZipName, shortHash, statusImageFileName } from '../../../../domain/download-names';
import { ImageCard } from '../../components/image-card';
import { ShareActions, useBusy } from '../../components/share-actions';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import type { GeneratedImage } from '../../lib/api';
import { useBrand } from '../../lib/config';
import { downloadZip } from '../../lib/downloads';
import { groupByImageHash } from '../../lib/generation-state';
import { COPIED_MESSAGES, galleryLink, galleryShareText } from '../../lib/share';

/** A completed order's images, one section per photo, with the zip of all and each photo's share link. */
export function GenerationImages({ id, images }: { id: string; images: GeneratedImage[] }) {
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
