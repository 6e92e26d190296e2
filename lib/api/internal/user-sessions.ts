import { changePassword } from '@/lib/core/passwords/change-password';
import { changePasswordSchema } from '@/lib/core/passwords/schemas';
import { endMemberSessions } from '@/lib/core/user-sessions/end-member-sessions';
import { endMyOtherSessions } from '@/lib/core/user-sessions/end-my-other-sessions';
import { endMySession } from '@/lib/core/user-sessions/end-my-session';
import { listMySessions } from '@/lib/core/user-sessions/list-my-sessions';
import { z } from '@/lib/core/zod';
import type { Endpoint } from '../endpoint';

const anything = z.object({}).passthrough();

/** The Profile page (the signed-in person's own sessions and password) and the members page's "End sessions". */
export const userSessionInternalEndpoints: Endpoint[] = [
  {
    method: 'get',
    path: '/internal/me/sessions',
    verb: listMySessions,
    status: 200,
    summary: 'Where the signed-in person is signed in',
    tags: ['Internal'],
    response: anything,
    input: () => ({}),
    isHiddenFromDocument: true,
  },
  {
    method: 'delete',
    path: '/internal/me/sessions/{session_id}',
    verb: endMySession,
    status: 200,
    summary: 'End one of my sessions',
    tags: ['Internal'],
    response: anything,
    input: ({ params }) => ({ session_id: params.session_id }),
    isHiddenFromDocument: true,
  },
  {
    method: 'post',
    path: '/internal/me/sessions/end-others',
    verb: endMyOtherSessions,
    status: 200,
    summary: 'Sign out everywhere else',
    tags: ['Internal'],
    response: anything,
    input: () => ({}),
    isHiddenFromDocument: true,
  },
  {
    method: 'post',
    path: '/internal/me/password',
    verb: changePassword,
    status: 200,
    summary: 'Change my password (ends my other sessions)',
    tags: ['Internal'],
    body: changePasswordSchema,
    response: anything,
    input: ({ body }) => body,
    isHiddenFromDocument: true,
  },
  {
    method: 'post',
    path: '/internal/accounts/{account_id}/members/{user_id}/end-sessions',
    verb: endMemberSessions,
    status: 200,
    summary: 'End every session of a member (who may manage members)',
    tags: ['Internal'],
    response: anything,
    input: ({ params }) => ({ user_id: params.user_id }),
    isHiddenFromDocument: true,
  },
];
