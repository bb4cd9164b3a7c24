import { RotateCcw } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { ButtonLink } from '../../components/ui/button';
import { clearWizard } from '../../features/wizard/wizard-state';
import { type ErasureReport, getGeneration } from '../../lib/api';
import { useBrand } from '../../lib/config';
import {
  failedAlertText,
  type GenerationState,
  generationReducer,
  initialGenerationState,
  isInProgress,
} from '../../lib/generation-state';
import { useDocumentTitle } from '../../lib/head';
import { GENERATION_POLL_MS } from '../../lib/polling';
import { usePoll } from '../../lib/use-query';
import { DeletedNotice, DeleteMyData, deletedSummary, erasedLines } from './delete-my-data';
import { GenerationImages } from './generation-images';
import { GenerationProgress, StatusLoading } from './generation-progress';
import { OrderReceipt } from './order-receipt';

/** What the page shows of the order's state, in the spec's words. */
function StatusBody({ id, state }: { id: string | undefined; state: GenerationState }): ReactNode {
  const { data, error, loading, gone } = state;
  if (!id) {
    return (
      <Alert variant="destructive" title="Error">
        Generation ID is missing.
      </Alert>
    );
  }
  if (!data && error) {
    return (
      <div className="space-y-4">
        <Alert variant="destructive" title="Error">
          {error}
        </Alert>
        {/* The spec's error line stays; beneath it, what happened to a deleted order. */}
        {gone && <DeletedNotice lines={erasedLines(gone)} />}
      </div>
    );
  }
  if (!data && loading) return <StatusLoading />;
  if (!data) return <p className="text-muted-foreground">No generation data available.</p>;
  if (isInProgress(data.status)) return <GenerationProgress data={data} />;
  if (data.status === 'completed') return <GenerationImages id={id} images={data.images} />;
  if (data.status === 'failed') {
    return (
      <Alert variant="destructive" title="Generation Failed">
        {failedAlertText(data)}
      </Alert>
    );
  }
  return <Alert variant="info">Unknown status: {data.status}</Alert>;
}

export default function StatusPage() {
  const { id } = useParams();
  const brand = useBrand();
  useDocumentTitle(`Your images | ${brand}`);
  const [erased, setErased] = useState<ErasureReport | null>(null);
  // Read at once, then every GENERATION_POLL_MS until the order is final or a read fails; erasure stops it.
  const state = usePoll(id && `generation/${id}`, (signal) => getGeneration(id ?? '', signal), {
    intervalMs: GENERATION_POLL_MS,
    reduce: generationReducer,
    initial: initialGenerationState,
    enabled: !erased,
  });
  // The order is placed: the wizard's kept choices are done with.
  useEffect(() => clearWizard(), []);
  const { data, gone } = state;
  const final = data && !isInProgress(data.status);

  return (
    <div className="container-page py-10 sm:py-14">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Your images</h1>
      {id && <p className="mt-1 text-sm break-all text-muted-foreground">Generation {id}</p>}
      <div className="mt-8">
        {erased ? <DeletedNotice lines={deletedSummary(erased)} /> : <StatusBody id={id} state={state} />}
      </div>
      {data?.receipt && !erased && (
        <div className="mt-10">
          <OrderReceipt lines={data.receipt} />
        </div>
      )}
      {id && final && !erased && (
        <div className="mt-10">
          <DeleteMyData id={id} onDeleted={setErased} />
        </div>
      )}
      {(erased || gone || final) && (
        <div className="mt-10 flex justify-center">
          <ButtonLink to="/" variant="outline" size="lg" icon={RotateCcw}>
            Generate Again
          </ButtonLink>
        </div>
      )}
    </div>
  );
}
