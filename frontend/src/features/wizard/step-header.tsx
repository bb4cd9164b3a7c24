import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../components/ui/button';

/** Title row shared by the wizard steps, with an optional back button. */
export function StepHeader({
  title,
  subtitle,
  onBack,
  step,
}: {
  title: string;
  subtitle?: ReactNode;
  onBack?: () => void;
  step?: { current: number; total: number };
}) {
  return (
    <div className="mb-6 sm:mb-8">
      <div className="flex items-center gap-3">
        {onBack && (
          <Button
            variant="outline"
            size="icon"
            onClick={onBack}
            aria-label="Back"
            className="shrink-0 rounded-full"
            icon={ArrowLeft}
          />
        )}
        {step && (
          <p className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">
            Step {step.current} of {step.total}
          </p>
        )}
      </div>
      <h1 className="mt-3 text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
      {subtitle && <p className="mt-2 max-w-2xl text-muted-foreground">{subtitle}</p>}
    </div>
  );
}
