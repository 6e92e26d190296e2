import type { ContactFilters } from '@/components/forms/contact-filter-form';
import { SUBSCRIPTION_STATUSES } from '@/lib/core/lists/schemas';
import type { ContactExportSelection } from './export-queries';
import type { AttributeDefinition } from './types';

/** A filter value typed as its attribute is (the contacts page compares text; a segment filter wants the type). */
function typedValue(definition: AttributeDefinition | undefined, value: string): unknown {
  if (definition?.type === 'number' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (definition?.type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/**
 * The contacts page's filters as an export's selection: none is every contact, a list alone is
 * `list_id`, anything else a segment filter that matches what the page shows (a list in any status).
 */
export function exportSelectionOf(filters: ContactFilters, definitions: AttributeDefinition[]): ContactExportSelection {
  const search = filters.search.trim();
  const hasAttribute = Boolean(filters.attribute && filters.value);
  if (!search && !filters.subscription && !hasAttribute) return filters.list_id ? { list_id: filters.list_id } : {};
  const all: unknown[] = [];
  if (search)
    all.push({
      any: ['email', 'first_name', 'last_name'].map((field) => ({ field, op: 'contains', value: search })),
    });
  if (filters.subscription)
    all.push({ field: 'unsubscribed', op: 'eq', value: filters.subscription === 'unsubscribed' });
  if (filters.list_id) all.push({ any: SUBSCRIPTION_STATUSES.map((status) => ({ list: filters.list_id, status })) });
  if (hasAttribute) {
    const definition = definitions.find((candidate) => candidate.key === filters.attribute);
    all.push({ field: `attributes.${filters.attribute}`, op: 'eq', value: typedValue(definition, filters.value) });
  }
  return { filter: { all } } as ContactExportSelection;
}
