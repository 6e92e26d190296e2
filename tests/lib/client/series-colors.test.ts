import { describe, expect, it } from 'vitest';
import { CHART_BACKGROUNDS, SERIES_COLORS, contrastRatio } from '@/lib/client/series-colors';

describe('chart colours', () => {
  it('the contrast ratio is the WCAG one: black on white 21, a colour on itself 1', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#1d5fd6', '#1d5fd6')).toBe(1);
  });

  for (const [series, colour] of Object.entries(SERIES_COLORS)) {
    for (const background of CHART_BACKGROUNDS) {
      it(`${series} (${colour}) reads as legend text on ${background}: at least 4.5:1`, () => {
        expect(contrastRatio(colour, background)).toBeGreaterThanOrEqual(4.5);
      });
    }
  }
});
