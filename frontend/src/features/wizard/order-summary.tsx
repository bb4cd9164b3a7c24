import type { RefusedPhoto } from './wizard-types';

/** "1 photo not included: it looks like it may contain nudity", with counts per reason when they differ. */
export function notIncludedLine(refused: RefusedPhoto[]): string {
  const counts = new Map<string, number>();
  for (const r of refused) counts.set(r.reason, (counts.get(r.reason) ?? 0) + 1);
  const because = (n: number, reason: string) => `${n === 1 ? 'it' : 'each'} ${reason}`;
  const head = `${refused.length} ${refused.length === 1 ? 'photo' : 'photos'} not included`;
  if (counts.size === 1) return `${head}: ${because(refused.length, refused[0].reason)}`;
  return `${head}: ${[...counts].map(([reason, n]) => `${n} because ${because(n, reason)}`).join(', ')}`;
}

/** How a summary line looks: a plain figure, the list price struck through, the saving, the total. */
const SUMMARY_LOOKS = {
  plain: { row: 'py-2.5', label: 'text-muted-foreground', value: 'font-medium tabular-nums' },
  struck: {
    row: 'py-2.5',
    label: 'text-muted-foreground',
    value: 'font-medium tabular-nums text-muted-foreground line-through decoration-1',
  },
  saving: {
    row: 'py-2.5',
    label: 'font-medium text-emerald-700 dark:text-emerald-400',
    value: 'font-semibold tabular-nums text-emerald-700 dark:text-emerald-400',
  },
  total: { row: 'pt-4', label: 'text-base font-bold', value: 'text-2xl font-extrabold tabular-nums' },
};

export function SummaryRow({
  label,
  value,
  look = 'plain',
}: {
  label: string;
  value: string;
  look?: keyof typeof SUMMARY_LOOKS;
}) {
  const classes = SUMMARY_LOOKS[look];
  return (
    <div className={`flex items-center justify-between ${classes.row}`}>
      <dt className={classes.label}>{label}</dt>
      <dd className={classes.value}>{value}</dd>
    </div>
  );
}
