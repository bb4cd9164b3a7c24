export function Progress({ value, label }: { value: number; label: string }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      className="h-3 w-full overflow-hidden rounded-full bg-muted ring-1 ring-border ring-inset"
    >
      <div
        className="brand-gradient h-full rounded-full transition-[width] duration-500"
        style={{ width: `${value}%` }}
      />
    </div>
  );
}
