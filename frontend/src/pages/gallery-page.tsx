import { LoaderCircle } from 'lucide-react';
import { useParams } from 'react-router';
import { imageFileName } from '../../../domain/download-names';
import { ImageCard } from '../components/image-card';
import { Alert } from '../components/ui/alert';
import { Skeleton } from '../components/ui/skeleton';
import { getGallery } from '../lib/api';
import { useBrand } from '../lib/config';
import { useDocumentTitle } from '../lib/head';
import { errorText, useQuery } from '../lib/use-query';
import { TryYourOwn } from './image-page';

export default function GalleryPage() {
  const { id = '' } = useParams();
  const brand = useBrand();
  useDocumentTitle(`Cartoon gallery | ${brand}`);
  const state = useQuery(`gallery/${id}`, () => getGallery(id));

  return (
    <div className="container-page py-10 sm:py-14">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">One photo, many styles</h1>
          <p className="mt-2 text-muted-foreground">Every cartoon style created from this photo with {brand}.</p>
        </div>
        <TryYourOwn />
      </div>

      <div className="mt-8">
        {state.status === 'loading' && (
          <div aria-busy="true">
            <p className="flex items-center gap-2 text-muted-foreground" role="status">
              <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />
              Loading...
            </p>
            <div className="mt-4 grid grid-cols-1 gap-6 sm:grid-cols-2 md:grid-cols-3">
              {[0, 1, 2].map((i) => (
                <Skeleton key={i} className="aspect-square" />
              ))}
            </div>
          </div>
        )}
        {state.status === 'error' && (
          <Alert variant="destructive" title="Error">
            {errorText(state.error, 'Failed to load images.')}
          </Alert>
        )}
        {state.status === 'ready' && (
          <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 md:grid-cols-3">
            {state.data.map((image) => (
              <li key={`${image.styleId}-${image.url}`}>
                <ImageCard
                  image={image}
                  heading="h2"
                  alt={`Photo transformed into the ${image.styleName} style`}
                  fileName={(blob) => imageFileName(image.styleName, image.imageHash, blob.type)}
                />
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
