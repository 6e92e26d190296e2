import { z } from '@/lib/core/zod';

export const providerPacingSchema = z
  .object({
    object: z.literal('provider_pacing'),
    provider: z.enum(['gmail', 'microsoft', 'yahoo', 'apple', 'other', 'relay']),
    destination: z.string().nullable().openapi({
      description:
        "Always null: other destinations are summed without their names (they may be other accounts' recipients)",
    }),
    state: z.enum(['normal', 'slowed']),
    slowed_since: z.string().nullable(),
    connections: z.number().int().openapi({ description: 'Connections allowed now, summed over delivery processes' }),
    normal_connections: z.number().int(),
    messages_per_minute: z.number().nullable().openapi({
      description:
        'At most this many messages a minute, summed over delivery processes, once one connection each is still too many for the provider; null: no limit but the connections',
    }),
    throttled_replies: z.number().int(),
    last_throttled_at: z.string().nullable(),
  })
  .openapi('ProviderPacing');

export const providerPacingListSchema = z
  .object({ object: z.literal('list'), data: z.array(providerPacingSchema) })
  .openapi('ProviderPacingList');

export type ProviderPacingView = z.infer<typeof providerPacingSchema>;
