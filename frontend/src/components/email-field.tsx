/**
 * The e-mail field of the order and preview sign-up forms: one label, help line, validation (domain/email.ts) and
 * error display for both. Validated on submit; once an error shows it is re-checked on each keystroke, and a
 * server error clears on typing (docs/product-spec.md §5).
 */
import { useId, useState } from 'react';
import { validateEmail } from '../../../domain/email';
import { Input } from './ui/input';

export interface EmailState {
  value: string;
  setValue: (v: string) => void;
  error: string | null;
  /** Shows an error from the server under the field until the visitor types. */
  setServerError: (message: string | null) => void;
  /** Validates for submit: shows the problem and returns false when there is one. */
  validate: () => boolean;
  onType: (v: string) => void;
}

export function useEmail(value: string, setValue: (v: string) => void): EmailState {
  const [problem, setProblem] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  return {
    value,
    setValue,
    error: problem ?? serverError,
    setServerError,
    validate() {
      const p = validateEmail(value);
      setProblem(p);
      return p === null;
    },
    onType(v) {
      setValue(v);
      if (problem) setProblem(validateEmail(v));
      if (serverError) setServerError(null);
    },
  };
}

export function EmailField({ email, help, className }: { email: EmailState; help?: string; className?: string }) {
  const id = useId();
  const helpId = useId();
  const errorId = useId();
  const described = [help ? helpId : null, email.error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="text-sm font-semibold">
        Email address
      </label>
      {help && (
        <p id={helpId} className="mt-0.5 text-sm text-muted-foreground">
          {help}
        </p>
      )}
      <Input
        id={id}
        type="email"
        required
        autoComplete="email"
        inputMode="email"
        placeholder="you@example.com"
        value={email.value}
        aria-invalid={email.error ? true : undefined}
        aria-describedby={described}
        onChange={(e) => email.onType(e.target.value)}
        className="mt-2"
      />
      {email.error && (
        <p id={errorId} role="alert" className="mt-2 text-sm font-medium text-destructive">
          {email.error}
        </p>
      )}
    </div>
  );
}
