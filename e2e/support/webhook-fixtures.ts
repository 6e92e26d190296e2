/** The event flags of a webhook, as the AhaSend contract names them, and Mailstead's `on_complained`. */
export const FLAGS = [
  'on_reception',
  'on_delivered',
  'on_transient_error',
  'on_failed',
  'on_bounced',
  'on_suppressed',
  'on_opened',
  'on_clicked',
  'on_suppression_created',
  'on_dns_error',
  'on_complained',
] as const;

/** Every event flag set to `value`, to spread into a webhook body. */
export const allFlags = (value: boolean) => Object.fromEntries(FLAGS.map((flag) => [flag, value]));
