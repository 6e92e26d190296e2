'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { CreateSignupFormDialog } from '@/components/dialogs/signup-form-dialogs';
import { useAccountScopes } from '@/components/layout/use-account-scopes';
import { SignupFormTable } from '@/components/tables/signup-form-table';
import { Button } from '@/components/ui/button';
import { Alert, EmptyState, LoadingState, PageHeader } from '@/components/ui/feedback';
import { ApiError } from '@/lib/client/api';
import { useLists } from '@/lib/client/list-queries';
import { useSignupForms } from '@/lib/client/signup-form-queries';

/** The account's signup forms: hosted pages and embeddable snippets that add people to lists. */
export function SignupFormsView({ accountId }: { accountId: string }) {
  const router = useRouter();
  const { can } = useAccountScopes(accountId);
  const forms = useSignupForms(accountId);
  const lists = useLists(accountId);
  const [isCreating, setIsCreating] = useState(false);
  const rows = forms.data?.data ?? [];
  const listNames = new Map((lists.data?.data ?? []).map((list) => [list.id, list.name]));
  const createButton = can('lists:write') ? (
    <Button onClick={() => setIsCreating(true)}>Create signup form</Button>
  ) : null;

  return (
    <>
      <PageHeader
        title="Signup forms"
        description="A hosted page and a snippet for your site that add the people who sign up to your lists, with a confirmation email first (double opt-in) unless you turn it off."
        actions={createButton}
      />
      <div className="space-y-4">
        {forms.isPending ? <LoadingState label="Loading signup forms…" /> : null}
        {forms.error ? (
          <Alert
            tone={forms.error instanceof ApiError && forms.error.status === 403 ? 'warning' : 'error'}
            title="Signup forms could not be loaded"
          >
            {forms.error.message}
          </Alert>
        ) : null}
        {forms.data && rows.length === 0 ? (
          <EmptyState title="No signup forms yet" action={createButton}>
            Create a form, then share its link or paste its snippet into your website.
          </EmptyState>
        ) : null}
        {rows.length > 0 ? <SignupFormTable accountId={accountId} forms={rows} listNames={listNames} /> : null}
      </div>
      <CreateSignupFormDialog
        accountId={accountId}
        isOpen={isCreating}
        onClose={() => setIsCreating(false)}
        onCreated={(form) => router.push(`/${accountId}/signup-forms/${form.id}`)}
      />
    </>
  );
}
