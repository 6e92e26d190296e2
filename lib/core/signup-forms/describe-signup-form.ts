import { and, eq, isNull } from 'drizzle-orm';
import type { AttributeType } from '@/lib/core/contacts/attribute-values';
import type { Services } from '@/lib/core/context';
import { accounts, contactAttributeDefinitions, signupForms } from '@/lib/db/schema';
import { isUuid } from '@/lib/shared/ids';
import { fieldLabel } from './internal/present';

export type HostedForm = {
  id: string;
  name: string;
  accountName: string;
  isDoubleOptIn: boolean;
  /** Where a post sends the browser: the page's form-action must allow it, as browsers check redirects too. */
  redirectUrl: string | null;
  fields: { key: string; label: string; type: AttributeType }[];
};

/**
 * What the hosted page (GET /f/{form_id}) shows: the form's name, the account's name and the
 * fields asked for, with their types and labels. Null for a form that is not live. Unsafe: public.
 */
export async function unsafeDescribeSignupForm(
  services: Pick<Services, 'db'>,
  formId: string,
): Promise<HostedForm | null> {
  if (!isUuid(formId)) return null;
  const [found] = await services.db
    .select({ form: signupForms, accountName: accounts.name })
    .from(signupForms)
    .innerJoin(accounts, eq(accounts.id, signupForms.accountId))
    .where(
      and(
        eq(signupForms.id, formId.toLowerCase()),
        isNull(signupForms.deletedAt),
        isNull(accounts.deletedAt),
        eq(accounts.status, 'active'),
      ),
    )
    .limit(1);
  if (!found) return null;
  const definitions = new Map(
    (
      await services.db
        .select({
          key: contactAttributeDefinitions.key,
          type: contactAttributeDefinitions.type,
          label: contactAttributeDefinitions.label,
        })
        .from(contactAttributeDefinitions)
        .where(eq(contactAttributeDefinitions.accountId, found.form.accountId))
    ).map((row) => [row.key, row]),
  );
  return {
    id: found.form.id,
    name: found.form.name,
    accountName: found.accountName,
    isDoubleOptIn: found.form.isDoubleOptIn,
    redirectUrl: found.form.redirectUrl,
    fields: found.form.fields.flatMap((key) => {
      const definition = definitions.get(key);
      return definition
        ? [{ key, label: definition.label || fieldLabel(key), type: definition.type as AttributeType }]
        : [];
    }),
  };
}
