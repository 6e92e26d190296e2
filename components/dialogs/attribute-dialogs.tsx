'use client';

import { AttributeDefinitionForm } from '@/components/forms/attribute-definition-form';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog } from '@/components/ui/dialog';
import {
  useCreateAttributeDefinition,
  useDeleteAttributeDefinition,
  useUpdateAttributeDefinition,
} from '@/lib/client/contact-queries';
import type { AttributeDefinition } from '@/lib/client/types';

/** Create (definition null) or edit one attribute definition. */
export function AttributeDefinitionDialog({
  accountId,
  isOpen,
  definition,
  onClose,
  onSaved,
}: {
  accountId: string;
  isOpen: boolean;
  definition: AttributeDefinition | null;
  onClose: () => void;
  onSaved: (notice: string) => void;
}) {
  const create = useCreateAttributeDefinition(accountId);
  const update = useUpdateAttributeDefinition(accountId);
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={definition ? `Edit ${definition.key}` : 'Add an attribute'}>
      {isOpen ? (
        <AttributeDefinitionForm
          definition={definition}
          onCancel={onClose}
          onSubmit={async (values) => {
            if (definition)
              await update.mutateAsync({ key: definition.key, type: values.type, label: values.label ?? null });
            else await create.mutateAsync({ key: values.key, type: values.type, label: values.label ?? null });
            onSaved(definition ? `${definition.key} saved.` : `${values.key} added: contacts can hold it now.`);
          }}
        />
      ) : null}
    </Dialog>
  );
}

export function DeleteAttributeDialog({
  accountId,
  definition,
  onClose,
  onDeleted,
}: {
  accountId: string;
  definition: AttributeDefinition | null;
  onClose: () => void;
  onDeleted: (notice: string) => void;
}) {
  const remove = useDeleteAttributeDefinition(accountId);
  return (
    <ConfirmDialog
      isOpen={definition !== null}
      title={`Delete ${definition?.key ?? 'attribute'}?`}
      confirmLabel="Delete attribute"
      onConfirm={() => remove.mutateAsync(definition!.key)}
      onDone={() => onDeleted(`${definition!.key} deleted.`)}
      onClose={onClose}
    >
      <p>
        Every contact&apos;s value for <code className="font-mono">{definition?.key}</code> is removed with it, and
        imports with this column are refused until it is defined again.
      </p>
      <p className="font-medium">This cannot be undone.</p>
    </ConfirmDialog>
  );
}
