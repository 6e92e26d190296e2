import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Every metric the process counts as it works, in one registry of its own (not prom-client's
 * global one). Counting is in memory and cheap; nothing here touches the database. Gauges read at
 * scrape time (queue depth, webhook backlog, database pool) are added by lib/server/metrics-collectors.ts.
 * The README's Monitoring section describes each one.
 */
export const metricsRegistry = new Registry();

export const deliveriesTotal = new Counter({
  name: 'mailstead_deliveries_total',
  help: 'Delivery outcomes written by this process, by outcome (delivered, deferred, bounced, failed, suppressed)',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const smtpResponsesTotal = new Counter({
  name: 'mailstead_smtp_responses_total',
  help: 'Replies of recipient MX hosts (or the relay) to delivery attempts, by class: 2xx, 4xx, 5xx, or unreachable (no SMTP reply)',
  labelNames: ['class'] as const,
  registers: [metricsRegistry],
});

export const deliveryLatencySeconds = new Histogram({
  name: 'mailstead_delivery_latency_seconds',
  help: 'Time from acceptance to delivery of delivered messages (sandbox messages excluded)',
  buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 4 * 3600, 24 * 3600],
  registers: [metricsRegistry],
});

export const httpRequestsTotal = new Counter({
  name: 'mailstead_http_requests_total',
  help: 'API requests (/v2, /v1, /internal, tracking and unsubscribe links) by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [metricsRegistry],
});

export const httpRequestDurationSeconds = new Histogram({
  name: 'mailstead_http_request_duration_seconds',
  help: 'Time to answer API requests, by method and route pattern',
  labelNames: ['method', 'route'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

export const webhookAttemptsTotal = new Counter({
  name: 'mailstead_webhook_attempts_total',
  help: 'Webhook and route delivery attempts by this process, by result (success, failure)',
  labelNames: ['result'] as const,
  registers: [metricsRegistry],
});

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

// Label children are looked up once per combination: both label sets are small and bounded.
const requestCounters = new Map<string, { inc: () => void }>();
const requestTimers = new Map<string, { observe: (value: number) => void }>();

/** One API request: `route` is the matched pattern (`/v2/accounts/:account_id/...`), never the raw path. */
export function observeHttpRequest(method: string, route: string, status: number, seconds: number): void {
  const verb = METHODS.has(method) ? method : 'OTHER';
  const countKey = `${verb} ${route} ${status}`;
  let counter = requestCounters.get(countKey);
  if (!counter) requestCounters.set(countKey, (counter = httpRequestsTotal.labels(verb, route, String(status))));
  counter.inc();
  const timeKey = `${verb} ${route}`;
  let timer = requestTimers.get(timeKey);
  if (!timer) requestTimers.set(timeKey, (timer = httpRequestDurationSeconds.labels(verb, route)));
  timer.observe(seconds);
}

/** The class of an SMTP reply code: 2xx, 4xx or 5xx (anything else counts with its first digit). */
export function smtpReplyClass(code: number): string {
  return `${Math.floor(code / 100)}xx`;
}

const outcomeCounters = new Map<string, { inc: () => void }>();

/** One delivery outcome as written; `latencySeconds` for delivered real (not sandbox) messages. */
export function observeDeliveryOutcome(outcome: string, latencySeconds: number | null): void {
  let counter = outcomeCounters.get(outcome);
  if (!counter) outcomeCounters.set(outcome, (counter = deliveriesTotal.labels(outcome)));
  counter.inc();
  if (latencySeconds !== null) deliveryLatencySeconds.observe(latencySeconds);
}

const replyCounters = new Map<string, { inc: () => void }>();

/** One delivery attempt's SMTP reply: `2xx`, `4xx`, `5xx`, or `unreachable` when no server replied. */
export function observeSmtpResponse(replyClass: string): void {
  let counter = replyCounters.get(replyClass);
  if (!counter) replyCounters.set(replyClass, (counter = smtpResponsesTotal.labels(replyClass)));
  counter.inc();
}

const providerConcurrency = new Gauge({
  name: 'mailstead_provider_concurrency',
  aggregator: 'sum',
  help: 'SMTP connections a delivery process allows a mailbox provider now (lower than DELIVERY_CONNECTIONS while it throttles), summed over processes',
  labelNames: ['provider'] as const,
  registers: [metricsRegistry],
});

const providerThrottled = new Gauge({
  name: 'mailstead_provider_throttled',
  aggregator: 'max',
  help: 'Mailbox providers slowed down after throttling replies: 1 while slowed, else 0; for provider "other", how many other destinations are slowed',
  labelNames: ['provider'] as const,
  registers: [metricsRegistry],
});

const providerSpacing = new Gauge({
  name: 'mailstead_provider_message_spacing_seconds',
  aggregator: 'max',
  help: 'Least time between two messages to a mailbox provider, once one connection is still too many for it (0: not spaced)',
  labelNames: ['provider'] as const,
  registers: [metricsRegistry],
});

/** The pacing of a delivery process (lib/mail/provider-pacing.ts), set about once a second. */
export function observeProviderPacing(
  named: readonly string[],
  states: readonly { key: string; concurrency: number; slowedSince: Date | null; spacingMs: number }[],
  normalConcurrency: number,
): void {
  const byKey = new Map(states.map((state) => [state.key, state]));
  for (const provider of named) {
    const state = byKey.get(provider);
    providerConcurrency.set({ provider }, state?.concurrency ?? normalConcurrency);
    providerThrottled.set({ provider }, state?.slowedSince ? 1 : 0);
    providerSpacing.set({ provider }, (state?.spacingMs ?? 0) / 1000);
  }
  const slowedOthers = states.filter((state) => !named.includes(state.key) && state.slowedSince).length;
  providerThrottled.set({ provider: 'other' }, slowedOthers);
}
