import { Clock, LoaderCircle } from 'lucide-react';
import { Card } from '../../components/ui/card';
import { Progress } from '../../components/ui/progress';
import { Skeleton } from '../../components/ui/skeleton';
import type { Generation } from '../../lib/api';
import { generationProgress, queuedText, readyText } from '../../lib/generation-state';

/** Before the first answer: a line for screen readers and the shape of the images to come. */
export function StatusLoading() {
  return (
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
}

/** An order still being made: how many images are ready, the bar, and why items wait when they do. */
export function GenerationProgress({ data }: { data: Generation }) {
  const progress = generationProgress(data);
  const queued = queuedText(data);
  return (
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
}
