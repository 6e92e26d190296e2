import { defineVerb } from '@/lib/core/verb';
import { presentDomain } from './internal/present';
import { getDomainInAccount, loadLiveKeys } from './internal/queries';
import { domainPathSchema } from './schemas';

export const getDomain = defineVerb({
  scope: 'domains:read',
  input: domainPathSchema,
  async run({ db, principal, config }, input) {
    const row = await getDomainInAccount(db, principal.targetAccountId, input.domain);
    return presentDomain(row, await loadLiveKeys(db, [row.id]), config);
  },
});
