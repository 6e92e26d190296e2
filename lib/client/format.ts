/** Numbers as people read them, in the viewer's locale: thousands separators, one decimal in percents. */

const counts = new Intl.NumberFormat(undefined);
const percents = new Intl.NumberFormat(undefined, {
  style: 'percent',
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});
const decimals = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

export const formatCount = (value: number) => counts.format(value);

/** A size in bytes as a reader says it: 812 B, 14.2 KB, 3.1 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The decoded size of base64 text. */
export const base64Bytes = (base64: string) =>
  Math.max(
    0,
    Math.floor((base64.replace(/\s/g, '').length * 3) / 4) - (base64.match(/=+\s*$/)?.[0].trim().length ?? 0),
  );

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

export const formatDateTime = (value: string | Date) =>
  new Date(value).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A moment in the viewer's zone, named, and in UTC: "Nov 27, 2026, 11:00 AM Europe/Berlin (10:00 AM UTC)". */
export function formatDateTimeWithUtc(value: string | Date): string {
  const date = new Date(value);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const utc = date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
  return zone === 'UTC' ? `${utc} UTC` : `${formatDateTime(date)} ${zone} (${utc} UTC)`;
}

/** How long ago a moment was, coarsely: "just now", "2 min ago", "3 h ago", "4 days ago". */
export function formatAge(value: string | Date, now: Date = new Date()): string {
  const seconds = Math.max(0, (now.getTime() - new Date(value).getTime()) / 1000);
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  const days = Math.floor(seconds / 86_400);
  return days === 1 ? '1 day ago' : `${counts.format(days)} days ago`;
}
