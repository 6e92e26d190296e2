/** A determinate progress bar (0..1), announced to screen readers as a percentage. */
export function ProgressBar({
  value,
  label,
  tone = 'blue',
}: {
  value: number;
  label: string;
  tone?: 'blue' | 'green' | 'red';
}) {
  const percent = Math.round(Math.min(1, Math.max(0, value)) * 1000) / 10;
  const tones = { blue: 'bg-brand-600', green: 'bg-green-600', red: 'bg-red-600' };
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
    >
      <div
        className={`h-full rounded-full transition-[width] duration-500 ${tones[tone]}`}
        style={{ width: `${percent}%` }}
      />
    </div>
  );
}
