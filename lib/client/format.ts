/** Numbers as people read them, in the viewer's locale: thousands separators, one decimal in percents. */

const counts = new Intl.NumberFormat(undefined);
const percents = new Intl.NumberFormat(undefined, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
const decimals = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

export const formatCount = (value: number) => counts.format(value);

/** A fraction (0.125) as "12.5%"; no denominator means no rate, shown as a dash. */
export const formatPercent = (fraction: number | null) => (fraction === null ? '—' : percents.format(fraction));

/** `part / whole`, or null when there is nothing to divide by. */
export const rateOf = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);

/** Seconds as the largest sensible unit: "850 ms", "4.2 s", "3 min 5 s", "2 h 10 min". */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '—';
  if (seconds < 1) return `${counts.format(Math.round(seconds * 1000))} ms`;
  if (seconds < 60) return `${decimals.format(seconds)} s`;
  if (seconds < 3600) {
    const minutes = Math.floor(seconds / 60);
    const rest = Math.round(seconds - minutes * 60);
    return rest ? `${minutes} min ${rest} s` : `${minutes} min`;
  }
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.round((seconds - hours * 3600) / 60);
  return minutes ? `${counts.format(hours)} h ${minutes} min` : `${counts.format(hours)} h`;
}

export const formatDateTime = (value: string | Date) => new Date(value).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
