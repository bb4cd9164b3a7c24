import { isRouteErrorResponse, useRouteError } from 'react-router';

function describe(error: unknown): { message: string; stack?: string } {
  if (isRouteErrorResponse(error)) return { message: `${error.status} ${error.statusText}` };
  if (error instanceof Error) return { message: error.message, stack: error.stack };
  if (typeof error === 'string') return { message: error };
  try {
    return { message: JSON.stringify(error) };
  } catch {
    return { message: String(error) };
  }
}

/** Generic fallback for render errors: 'Unexpected Application Error!' with message and stack. */
export function ErrorPage({ inline = false }: { inline?: boolean }) {
  const error = useRouteError();
  const { message, stack } = describe(error);
  const content = (
    <div className="mx-auto max-w-3xl space-y-4 px-4 py-16">
      <h1 className="text-2xl font-bold text-destructive">Unexpected Application Error!</h1>
      <p className="text-lg font-medium break-words">{message}</p>
      {stack && (
        <pre className="max-h-96 overflow-auto rounded-xl border border-border bg-muted p-4 text-xs leading-relaxed whitespace-pre-wrap">
          {stack}
        </pre>
      )}
      <a href="/" className="inline-block font-semibold text-primary underline underline-offset-4">
        Return to Home
      </a>
    </div>
  );
  return inline ? content : <main className="min-h-dvh bg-background text-foreground">{content}</main>;
}
