import { describe, expect, it } from 'vitest';
import { MEASURED_CHECKLIST } from '@/lib/core/domains/internal/provider-checklist-items';

const measure = (sums: Partial<Record<string, number>>) => {
  const full = {
    delivered: 0,
    complained: 0,
    deliveredTls: 0,
    deliveredPlain: 0,
    campaignDelivered: 0,
    campaignOneClick: 0,
    ...sums,
  };
  return Object.fromEntries(MEASURED_CHECKLIST.map((item) => item(full)).map((item) => [item.id, item]));
};

describe('the measured provider checklist', () => {
  it('nothing sent: every rule is unknown, with no value', () => {
    const items = measure({});
    for (const item of Object.values(items)) expect(item).toMatchObject({ status: 'unknown', value: null });
  });

  it('complaint rate: below 0.1% passes, from 0.1% warns, from 0.3% fails', () => {
    expect(measure({ delivered: 10_000, complained: 9 }).complaint_rate.status).toBe('pass');
    expect(measure({ delivered: 10_000, complained: 10 }).complaint_rate.status).toBe('warn');
    expect(measure({ delivered: 10_000, complained: 29 }).complaint_rate.status).toBe('warn');
    expect(measure({ delivered: 10_000, complained: 30 }).complaint_rate).toMatchObject({
      status: 'fail',
      value: 0.003,
      measured: '0.30% (30 of 10,000 delivered, from ARF reports)',
    });
  });

  it('one-click unsubscribe passes only when every campaign message carried it; TLS warns below 100%', () => {
    expect(measure({ campaignDelivered: 4, campaignOneClick: 4 }).one_click_unsubscribe.status).toBe('pass');
    expect(measure({ campaignDelivered: 4, campaignOneClick: 3 }).one_click_unsubscribe).toMatchObject({
      status: 'fail',
      value: 0.75,
    });
    expect(measure({ delivered: 3, deliveredTls: 3 }).tls).toMatchObject({ status: 'pass', value: 1 });
    expect(measure({ delivered: 3, deliveredTls: 2, deliveredPlain: 1 }).tls.status).toBe('warn');
    // Deliveries from before TLS was recorded (in `delivered`, in neither TLS counter) do not lower it.
    expect(measure({ delivered: 1_000, deliveredTls: 3 }).tls).toMatchObject({ status: 'pass', value: 1 });
    expect(measure({ delivered: 1_000 }).tls.status).toBe('unknown');
  });
});
