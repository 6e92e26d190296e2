import type { contactAttributeDefinitions, contacts } from '@/lib/db/schema';
import type { AttributeType } from '../attribute-values';

export type ContactRow = typeof contacts.$inferSelect;

export function presentContact(row: ContactRow) {
  return {
    object: 'contact' as const,
    id: row.id,
    email: row.email,
    first_name: row.firstName,
    last_name: row.lastName,
    attributes: row.attributes,
    unsubscribed: row.unsubscribed,
    unsubscribed_at: row.unsubscribedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export type ContactObject = ReturnType<typeof presentContact>;

export function presentAttributeDefinition(row: typeof contactAttributeDefinitions.$inferSelect) {
  return {
    object: 'contact_attribute' as const,
    key: row.key,
    type: row.type as AttributeType,
    label: row.label,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export type AttributeDefinitionObject = ReturnType<typeof presentAttributeDefinition>;
