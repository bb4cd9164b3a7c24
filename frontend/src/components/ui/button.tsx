import type { LucideIcon } from 'lucide-react';
import type { AnchorHTMLAttributes, ButtonHTMLAttributes, ReactNode } from 'react';
import { SmartLink, type SmartLinkProps } from '../smart-link';
import { cn } from './cn';

export type ButtonVariant =
  | 'primary'
  | 'secondary'
  | 'outline'
  | 'ghost'
  | 'ghost-destructive'
  | 'destructive'
  | 'gradient';
export type ButtonSize = 'sm' | 'md' | 'lg' | 'icon';

const base =
  'inline-flex items-center justify-center gap-2 rounded-xl font-semibold whitespace-nowrap transition-colors select-none ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring ' +
  'disabled:pointer-events-none disabled:opacity-50 aria-disabled:pointer-events-none aria-disabled:opacity-50 [&_svg]:shrink-0';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-primary-solid text-primary-foreground hover:bg-primary-solid-hover shadow-sm',
  gradient: 'brand-gradient text-white shadow-md shadow-fuchsia-500/20 hover:brightness-110',
  secondary: 'bg-accent text-accent-foreground hover:bg-accent/70',
  outline: 'border border-input bg-card text-foreground hover:bg-muted',
  ghost: 'text-foreground hover:bg-muted',
  'ghost-destructive': 'text-destructive hover:bg-destructive-soft',
  destructive: 'bg-destructive text-white hover:brightness-110',
};

const sizes: Record<ButtonSize, string> = {
  sm: 'h-9 px-3 text-sm [&_svg]:size-4',
  md: 'h-11 px-5 text-sm [&_svg]:size-4',
  lg: 'h-13 px-7 text-base [&_svg]:size-5',
  icon: 'size-10 [&_svg]:size-4',
};

export function buttonClass(variant: ButtonVariant = 'primary', size: ButtonSize = 'md', className?: string): string {
  return cn(base, variants[variant], sizes[size], className);
}

type Common = {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Drawn before the label; hidden from screen readers, which read the label (or aria-label) instead. */
  icon?: LucideIcon;
};

function content(Icon: LucideIcon | undefined, children: ReactNode): ReactNode {
  if (!Icon) return children;
  return (
    <>
      <Icon aria-hidden="true" />
      {children}
    </>
  );
}

export function Button({
  variant,
  size,
  className,
  type = 'button',
  icon,
  children,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & Common) {
  return (
    <button type={type} className={buttonClass(variant, size, className)} {...props}>
      {content(icon, children)}
    </button>
  );
}

export function ButtonLink({ variant, size, className, icon, children, ...props }: SmartLinkProps & Common) {
  return (
    <SmartLink className={buttonClass(variant, size, className)} {...props}>
      {content(icon, children)}
    </SmartLink>
  );
}

/** A link styled as a button that leaves the site (opens in a new tab). */
export function ExternalButtonLink({
  variant,
  size,
  className,
  icon,
  children,
  ...props
}: AnchorHTMLAttributes<HTMLAnchorElement> & Common) {
  return (
    <a target="_blank" rel="noopener noreferrer" className={buttonClass(variant, size, className)} {...props}>
      {content(icon, children)}
    </a>
  );
}
