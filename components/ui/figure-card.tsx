/** One sending figure: today's count, large, and the week's beside it. */
export function FigureCard({
  name,
  label,
  today,
  week,
  tone = 'slate',
}: {
  name: string;
  label: string;
  today: number;
  week: number;
  tone?: 'slate' | 'green' | 'red';
}) {
  const accents = { slate: 'border-slate-300', green: 'border-green-500', red: 'border-red-500' };
  return (
    <div
      className={`min-w-0 rounded-lg border-l-4 bg-white p-3 shadow-sm ring-1 ring-slate-200 sm:p-4 ${accents[tone]}`}
      data-figure={name}
    >
      <p className="text-sm font-medium text-slate-700">{label}</p>
      <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900 sm:text-3xl">
        <span data-period="today">{today.toLocaleString()}</span>
        <span className="sr-only"> today</span>
      </p>
      <p className="mt-1 text-xs text-slate-600">
        <span data-period="week" className="font-medium tabular-nums text-slate-800">
          {week.toLocaleString()}
        </span>{' '}
        in 7 days
      </p>
    </div>
  );
}
