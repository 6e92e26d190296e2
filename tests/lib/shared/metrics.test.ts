import { describe, expect, it } from 'vitest';
import {
  metricsRegistry,
  observeDeliveryOutcome,
  observeHttpRequest,
  observeSmtpResponse,
  smtpReplyClass,
} from '@/lib/shared/metrics';

/** The number of observations of a histogram without labels. */
const countOf = async (name: string) => {
  const values = (await metricsRegistry.getSingleMetric(name)!.get()).values as {
    metricName?: string;
    value: number;
  }[];
  return values.find((value) => value.metricName === `${name}_count`)?.value ?? 0;
};

const valueOf = async (name: string, labels: Record<string, string>) => {
  const metric = (await metricsRegistry.getMetricsAsJSON()).find((entry) => entry.name === name);
  const value = metric?.values.find((entry) =>
    Object.entries(labels).every(([key, wanted]) => String(entry.labels[key]) === wanted),
  );
  return value?.value ?? 0;
};

describe('metrics', () => {
  it.each([
    [250, '2xx'],
    [421, '4xx'],
    [451, '4xx'],
    [550, '5xx'],
  ])('SMTP reply %i is of class %s', (code, replyClass) => {
    expect(smtpReplyClass(code)).toBe(replyClass);
  });

  it('counts API requests by method, route pattern and status, and times them by route', async () => {
    const before = await valueOf('mailstead_http_requests_total', {
      method: 'GET',
      route: '/v2/accounts/:account_id',
      status: '200',
    });
    observeHttpRequest('GET', '/v2/accounts/:account_id', 200, 0.004);
    observeHttpRequest('GET', '/v2/accounts/:account_id', 200, 0.2);
    observeHttpRequest('BREW', '/v2/accounts/:account_id', 405, 0.001);
    expect(
      await valueOf('mailstead_http_requests_total', {
        method: 'GET',
        route: '/v2/accounts/:account_id',
        status: '200',
      }),
    ).toBe(before + 2);
    expect(
      await valueOf('mailstead_http_requests_total', {
        method: 'OTHER',
        route: '/v2/accounts/:account_id',
        status: '405',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      await valueOf('mailstead_http_request_duration_seconds', {
        method: 'GET',
        route: '/v2/accounts/:account_id',
        le: '0.005',
      }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('counts delivery outcomes, times only those given a latency, and counts SMTP reply classes', async () => {
    const delivered = await valueOf('mailstead_deliveries_total', { outcome: 'delivered' });
    const timed = await countOf('mailstead_delivery_latency_seconds');
    observeDeliveryOutcome('delivered', 1.5);
    observeDeliveryOutcome('delivered', null);
    observeDeliveryOutcome('bounced', null);
    observeSmtpResponse('5xx');
    expect(await valueOf('mailstead_deliveries_total', { outcome: 'delivered' })).toBe(delivered + 2);
    expect(await valueOf('mailstead_deliveries_total', { outcome: 'bounced' })).toBeGreaterThanOrEqual(1);
    expect(await valueOf('mailstead_smtp_responses_total', { class: '5xx' })).toBeGreaterThanOrEqual(1);
    expect(await countOf('mailstead_delivery_latency_seconds')).toBe(timed + 1);
  });
});
