'use client';

import { AttributeDefinitionForm } from '@/components/forms/attribute-definition-form';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Alert } from '@/components/ui/feedback';
import { useCreateAttributeDefinition, useDeleteAttributeDefinition, useUpdateAttributeDefinition } from '@/lib/client/contact-queries';
import type { AttributeDefinition } from '@/lib/client/types';

/** Create (definition null) or edit one attribute definition. */
export function AttributeDefinitionDialog({ accountId, isOpen, definition, onClose, onSaved }: { accountId: string; isOpen: boolean; definition: AttributeDefinition | null; onClose: () => void; onSaved: (notice: string) => void }) {
  const create = useCreateAttributeDefinition(accountId);
  const update = useUpdateAttributeDefinition(accountId);
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={definition ? `Edit ${definition.key}` : 'Add an attribute'}>
      {isOpen ? (
        <AttributeDefinitionForm
          definition={definition}
          onCancel={onClose}
          onSubmit={async (values) => {
            if (definition) await update.mutateAsync({ key: definition.key, type: values.type, label: values.label ?? null });
            else await create.mutateAsync({ key: values.key, type: values.type, label: values.label ?? null });
            onSaved(definition ? `${definition.key} saved.` : `${values.key} added: contacts can hold it now.`);
          }}
        />
      ) : null}
    </Dialog>
  );
}

export function DeleteAttributeDialog({ accountId, definition, onClose, onDeleted }: { accountId: string; definition: AttributeDefinition | null; onClose: () => void; onDeleted: (notice: string) => void }) {
  const remove = useDeleteAttributeDefinition(accountId);
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <Dialog
      isOpen={definition !== null}
      onClose={close}
      title={`Delete ${definition?.key ?? 'attribute'}?`}
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button
            variant="danger"
            isBusy={remove.isPending}
            onClick={() =>
              remove.mutate(definition!.key, {
                onSuccess: () => {
                  onDeleted(`${definition!.key} deleted.`);
                  close();
                },
              })
            }
          >
            Delete attribute
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm">
        {remove.error ? <Alert tone="error">{remove.error.message}</Alert> : null}
        <p>
          Every contact&apos;s value for <code className="font-mono">{definition?.key}</code> is removed with it, and imports with this column are refused until it is defined again.
        </p>
        <p className="font-medium">This cannot be undone.</p>
      </div>
    </Dialog>
  );
}
