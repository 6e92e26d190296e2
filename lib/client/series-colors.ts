/**
 * Colours of the outcomes and rates, the same in every chart, its legend and its table. Legends
 * write their labels in these colours, so each reads as text (4.5:1) on the white and slate-50 cards.
 */
export const SERIES_COLORS = {
  delivered: '#15803d',
  deferred: '#b45309',
  bounced: '#dc2626',
  failed: '#7f1d1d',
  suppressed: '#64748b',
  opened: '#1d5fd6',
  clicked: '#7c3aed',
  threshold: '#b91c1c',
} as const;

/** The chart backgrounds: white cards on the slate-50 page. */
export const CHART_BACKGROUNDS = ['#ffffff', '#f8fafc'] as const;

const channel = (value: number) => (value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4);

/** WCAG 2 contrast ratio of two `#rrggbb` colours. */
export function contrastRatio(first: string, second: string): number {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((start) => channel(parseInt(hex.slice(start, start + 2), 16) / 255));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(first), luminance(second)].sort((a, b) => b - a);
  return (light + 0.05) / (dark + 0.05);
}
