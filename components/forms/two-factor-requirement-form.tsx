'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';
import { useSetTwoFactorRequirement, useTwoFactorRequirement } from '@/lib/client/two-factor-queries';

/** Administrators' switch: every member must sign in with two factors (API keys are not affected). */
export function TwoFactorRequirementForm({ accountId }: { accountId: string }) {
  const requirement = useTwoFactorRequirement(accountId);
  const save = useSetTwoFactorRequirement(accountId);
  const [choice, setChoice] = useState<boolean | null>(null);
  const current = requirement.data?.require_two_factor ?? false;
  const isRequired = choice ?? current;
  const without = requirement.data?.members_without_two_factor ?? 0;
  return (
    <section
      aria-labelledby="two-factor-requirement-heading"
      className="space-y-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <h2 id="two-factor-requirement-heading" className="text-base font-semibold">
        Two-factor sign-in
      </h2>
      {requirement.error ? <Alert tone="error">{requirement.error.message}</Alert> : null}
      {save.error ? <Alert tone="error">{save.error.message}</Alert> : null}
      {save.isSuccess && choice === null ? <Alert tone="success">Saved.</Alert> : null}
      <form
        className="space-y-4"
        onSubmit={async (event) => {
          event.preventDefault();
          const saved = await save.mutateAsync(isRequired).catch(() => null);
          if (saved) setChoice(null);
        }}
      >
        <Checkbox
          label="Require two-factor sign-in for members"
          description={
            requirement.data
              ? `Members without it are led to set it up at their next visit and can do nothing else here until then. It applies to password sign-in; single sign-on relies on your identity provider's own second factor. ${without} member${without === 1 ? ' has' : 's have'} not set it up yet. API keys are not affected.`
              : undefined
          }
          checked={isRequired}
          disabled={!requirement.data}
          onChange={(event) => setChoice(event.currentTarget.checked)}
        />
        <Button type="submit" isBusy={save.isPending} disabled={!requirement.data || isRequired === current}>
          Save
        </Button>
      </form>
    </section>
  );
}
