/** One generated image with its style name, (optional) description, download and share buttons: status page and gallery. */
import type { GeneratedImage } from '../lib/api';
import { downloadImage } from '../lib/downloads';
import { COPIED_MESSAGES, styleLink, styleShareText } from '../lib/share';
import { ShareActions } from './share-actions';
import { Card } from './ui/card';

export function ImageCard({
  image,
  alt,
  fileName,
  heading: Heading = 'h3',
}: {
  image: GeneratedImage & { description?: string };
  alt: string;
  /** Download name from the fetched blob (the status page always says jpg, the gallery follows the blob's type). */
  fileName: (blob: Blob) => string;
  heading?: 'h2' | 'h3';
}) {
  return (
    <Card className="flex h-full flex-col overflow-hidden">
      <div className="aspect-square bg-muted">
        <img src={image.url} alt={alt} loading="lazy" className="size-full object-cover" />
      </div>
      <div className="flex flex-1 flex-col p-4 sm:p-5">
        <Heading className="text-lg font-semibold">{image.styleName}</Heading>
        {image.description && <p className="mt-1 text-sm text-muted-foreground">{image.description}</p>}
        <ShareActions
          compact
          className="mt-auto pt-4"
          subject={`${image.styleName} style`}
          onDownload={() => downloadImage(image.url, fileName)}
          target={{
            text: styleShareText(image.styleName),
            url: styleLink(window.location.origin, image.shareId, image.styleId),
            copiedMessage: COPIED_MESSAGES.style,
          }}
        />
      </div>
    </Card>
  );
}
