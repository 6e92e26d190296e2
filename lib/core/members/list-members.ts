import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { presentMember } from './internal/present';
import { listMembersInAccount } from './internal/queries';

/** GET members: every member, oldest first. The contract's list has no pagination. */
export const listMembers = defineVerb({
  scope: 'accounts:members:read',
  input: z.object({}),
  async run({ db, principal }) {
    const rows = await listMembersInAccount(db, principal.targetAccountId);
    return { object: 'list' as const, data: rows.map(presentMember) };
  },
});
