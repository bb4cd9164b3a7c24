import type { AnchorHTMLAttributes, ButtonHTMLAttributes } from 'react';
import { SmartLink, type SmartLinkProps } from '../SmartLink';
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

type Common = { variant?: ButtonVariant; size?: ButtonSize };

export function Button({
  variant,
  size,
  className,
  type = 'button',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & Common) {
  return <button type={type} className={buttonClass(variant, size, className)} {...props} />;
}

export function ButtonLink({ variant, size, className, ...props }: SmartLinkProps & Common) {
  return <SmartLink className={buttonClass(variant, size, className)} {...props} />;
}

/** A link styled as a button that leaves the site (opens in a new tab). */
export function ExternalButtonLink({
  variant,
  size,
  className,
  ...props
}: AnchorHTMLAttributes<HTMLAnchorElement> & Common) {
  return <a target="_blank" rel="noopener noreferrer" className={buttonClass(variant, size, className)} {...props} />;
}
