import type { AccountOverview } from '@/lib/client/types';

/**
 * The last seven days as bars (delivered, bounced, the rest), with the numbers written out: the bars
 * are decoration, the text is the content, so it reads the same to a screen reader.
 */
export function DailySendingChart({ days }: { days: AccountOverview['days'] }) {
  const most = Math.max(1, ...days.map((day) => day.sent));
  return (
    <ol className="space-y-3 sm:space-y-2" aria-label="Messages per day, last 7 days">
      {days.map((day) => {
        const rest = Math.max(0, day.sent - day.delivered - day.bounced);
        const share = (count: number) => `${(count / most) * 100}%`;
        return (
          <li
            key={day.from}
            className="grid grid-cols-[5.5rem_1fr] items-center gap-x-3 gap-y-0.5 text-sm sm:grid-cols-[7rem_1fr_16rem]"
          >
            <span className="text-slate-700">
              {new Date(day.from).toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short' })}
            </span>
            <span className="flex h-3 overflow-hidden rounded bg-slate-100" aria-hidden>
              <span className="bg-green-500" style={{ width: share(day.delivered) }} />
              <span className="bg-red-500" style={{ width: share(day.bounced) }} />
              <span className="bg-slate-400" style={{ width: share(rest) }} />
            </span>
            <span className="col-span-2 text-xs text-slate-600 sm:col-span-1">
              {day.sent.toLocaleString()} sent · {day.delivered.toLocaleString()} delivered ·{' '}
              {day.bounced.toLocaleString()} bounced
            </span>
          </li>
        );
      })}
    </ol>
  );
}
