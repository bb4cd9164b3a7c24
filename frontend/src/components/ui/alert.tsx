import { CircleAlert, Info, LoaderCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from './cn';

type Variant = 'destructive' | 'info' | 'progress';

const styles: Record<Variant, string> = {
  destructive: 'border-destructive/40 bg-destructive-soft text-destructive-foreground',
  info: 'border-border bg-info-soft text-info-foreground',
  progress: 'border-primary/30 bg-accent text-accent-foreground',
};

export function Alert({
  variant = 'info',
  title,
  children,
  className,
}: {
  variant?: Variant;
  title?: ReactNode;
  children?: ReactNode;
  className?: string;
}) {
  const Icon = variant === 'destructive' ? CircleAlert : variant === 'progress' ? LoaderCircle : Info;
  return (
    <div
      role={variant === 'destructive' ? 'alert' : 'status'}
      className={cn('flex gap-3 rounded-xl border px-4 py-3 text-sm', styles[variant], className)}
    >
      <Icon aria-hidden="true" className={cn('mt-0.5 size-4 shrink-0', variant === 'progress' && 'animate-spin')} />
      <div className="min-w-0 space-y-1">
        {title && <p className="font-semibold leading-5">{title}</p>}
        {children && <div className="leading-5 break-words">{children}</div>}
      </div>
    </div>
  );
}
