import { useSupportEmail } from '../lib/config';

/** The support address as a mailto link (footer, legal pages). */
export function SupportEmail({ className }: { className?: string }) {
  const address = useSupportEmail();
  return (
    <a href={`mailto:${address}`} className={className} data-support-email>
      {address}
    </a>
  );
}
