import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';

/**
 * The complaint rate above which a domain should pause. Complaint reports are received and counted
 * (the `complained` rollup counter), but no rate is measured or enforced yet: the page draws it as a guide.
 * 0.1% is the rate Gmail and Yahoo ask bulk senders to stay under.
 */
export const COMPLAINT_RATE_GUIDE = 0.001;

/**
 * What the Deliverability page needs to know about the limits that pause a sending domain, read from
 * the server's configuration (PAUSE_BOUNCE_RATE, PAUSE_MIN_VOLUME, PAUSE_WINDOW_HOURS). Whoever may
 * read statistics may read the limits they are measured against.
 */
export const getDeliverabilitySettings = defineVerb({
  scope: 'statistics-transactional:read:{domain}',
  input: z.object({}),
  async run({ config }) {
    const { bounceRate, minVolume, windowHours } = config.pause;
    return {
      object: 'deliverability_settings' as const,
      bounce_rate: { pause_above: bounceRate, min_volume: minVolume, window_hours: windowHours, is_enforced: true },
      complaint_rate: { pause_above: COMPLAINT_RATE_GUIDE, is_enforced: false, is_measured: false },
    };
  },
});

export type DeliverabilitySettings = Awaited<ReturnType<typeof getDeliverabilitySettings>>;
