'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useRouter } from 'next/navigation';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Field, TextInput } from '@/components/ui/field';
import { fieldOfError } from '@/lib/client/api';
import { SendingTypeHelp, SendingTypeSelect } from './sending-type-select';
import { useCreateDomain } from '@/lib/client/queries';
import { createDomainSchema } from '@/lib/core/domains/schemas';

type Values = z.input<typeof createDomainSchema>;

/** Adds a domain with the API's own schema; the server's verdict on the name lands under the field. */
export function AddDomainForm({ accountId }: { accountId: string }) {
  const router = useRouter();
  const create = useCreateDomain(accountId);
  const form = useForm<Values>({
    resolver: zodResolver(createDomainSchema),
    defaultValues: { domain: '', sending_type: 'transactional' },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    try {
      const domain = await create.mutateAsync({ domain: values.domain, sending_type: values.sending_type });
      router.push(`/${accountId}/domains/${encodeURIComponent(domain.domain)}`);
    } catch (error) {
      const field = fieldOfError(error, ['domain', 'sending_type']);
      form.setError((field ?? 'domain') as keyof Values, {
        message: (error as Error).message.replace(/^domain: /, ''),
      });
    }
  });
  return (
    <form onSubmit={submit} noValidate className="space-y-2 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-56 flex-1">
          <Field label="Domain" htmlFor="new-domain" error={errors.domain?.message}>
            <TextInput
              id="new-domain"
              placeholder="mail.example.com"
              aria-describedby="new-domain-hint"
              isInvalid={Boolean(errors.domain)}
              {...form.register('domain')}
            />
          </Field>
        </div>
        <SendingTypeSelect id="sending-type" {...form.register('sending_type')} />
        <Button type="submit" isBusy={isSubmitting}>
          Add domain
        </Button>
      </div>
      <p id="new-domain-hint" className="text-xs text-slate-600">
        The domain you send from, e.g. mail.example.com.
      </p>
      <SendingTypeHelp id="sending-type" />
    </form>
  );
}
