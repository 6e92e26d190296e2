import { z } from '@/lib/core/zod';

export const sessionPathSchema = z.object({ session_id: z.string().uuid('invalid session_id') });

export const memberSessionsPathSchema = z.object({ user_id: z.string().uuid('invalid user_id') });

export const userSessionSchema = z.object({
  object: z.literal('user_session'),
  id: z.string().uuid(),
  /** "Chrome on macOS": derived from the User-Agent for display. */
  device: z.string(),
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  created_at: z.string().datetime(),
  last_seen_at: z.string().datetime(),
  /** The session this request came with. */
  is_current: z.boolean(),
});

export type UserSessionObject = z.infer<typeof userSessionSchema>;
