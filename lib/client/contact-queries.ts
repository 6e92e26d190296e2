'use client';

import { keepPreviousData, useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from './use-query';
import type { ContactTotals } from '@/lib/core/contacts/count-contacts';
import type { ListTotals } from '@/lib/core/lists/count-lists';
import { apiRequest } from './api';
import { callEndpoint, type RequestOf } from './endpoints';
import type { AttributeDefinition, ContactObject } from './types';

const COLLECTION = '/v2/accounts/{account_id}/contacts';
const ITEM = '/v2/accounts/{account_id}/contacts/{id_or_email}';
const attributesPath = (accountId: string, key?: string) =>
  `/internal/accounts/${accountId}/contact-attributes${key ? `/${encodeURIComponent(key)}` : ''}`;

/** What create and update send; update sends only what changed (the API keeps omitted fields). */
export type ContactInput = RequestOf<`PUT ${typeof ITEM}`>;

/** `query` carries filters and cursor: `search`, `unsubscribed`, `list_id`, `attribute_key` with `attribute_value`, `after`, `before`, `limit`. */
export function useContacts(accountId: string, query: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['contacts', accountId, query],
    queryFn: () => callEndpoint(`GET ${COLLECTION}`, { account_id: accountId }, { query }),
    ...options,
  });
}

/** The totals the Contacts and Lists pages head with, counted now (internal, session only). */
export function useContactTotals(accountId: string) {
  return useQuery({
    queryKey: ['contact-totals', accountId],
    queryFn: () => apiRequest<ContactTotals>(`/internal/accounts/${accountId}/contact-totals`),
    retry: false,
  });
}

export function useListTotals(accountId: string) {
  return useQuery({
    queryKey: ['list-totals', accountId],
    queryFn: () => apiRequest<ListTotals>(`/internal/accounts/${accountId}/list-totals`),
    retry: false,
  });
}

export function useContact(accountId: string, contactId: string) {
  return useQuery({
    queryKey: ['contact', accountId, contactId],
    queryFn: () => callEndpoint(`GET ${ITEM}`, { account_id: accountId, id_or_email: contactId }),
  });
}

export function useContactMemberships(accountId: string, contactId: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['contact-lists', accountId, contactId],
    queryFn: () =>
      callEndpoint(`GET ${ITEM}/lists`, { account_id: accountId, id_or_email: contactId }, { query: 'limit=100' }),
    ...options,
  });
}

export type SubscriptionEvent = {
  object: 'contact_subscription_event';
  type: 'unsubscribed' | 'resubscribed';
  source: string;
  list_id: string | null;
  created_at: string;
};

/**
 * A contact's subscription history (R3: unsubscribing keeps it), newest first; dashboard only. Keyed
 * on the contact's subscription state too: a change read from the answer of a (re)subscribe is a
 * new key, fetched after that change, so the list never stays at a read that crossed it in flight.
 */
export function useSubscriptionEvents(accountId: string, contactId: string, subscriptionState: string) {
  return useQuery({
    queryKey: ['contact-history', accountId, contactId, subscriptionState],
    placeholderData: keepPreviousData,
    queryFn: () =>
      apiRequest<{ data: SubscriptionEvent[] }>(
        `/internal/accounts/${accountId}/contacts/${encodeURIComponent(contactId)}/subscription-events`,
      ),
    select: (list) => list.data,
  });
}

function useContactMutation<TInput, TResult>(accountId: string, request: (input: TInput) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: request,
    // A contact in the answer goes into the cache before the caller continues: the contact page keys
    // its form on updated_at, and a remount from a later refetch would wipe what the user typed since.
    onSuccess: (result) => {
      const updated = result as Partial<ContactObject> | null;
      if (updated?.object !== 'contact') return;
      client.setQueriesData<ContactObject>({ queryKey: ['contact', accountId] }, (old) =>
        old?.id === updated.id ? (updated as ContactObject) : old,
      );
    },
    onSettled: () => {
      for (const key of [
        'contacts',
        'contact',
        'contact-lists',
        'contact-history',
        'lists',
        'list',
        'list-members',
        'contact-totals',
      ])
        void client.invalidateQueries({ queryKey: [key, accountId] });
    },
  });
}

export function useCreateContact(accountId: string) {
  return useContactMutation(accountId, (body: RequestOf<`POST ${typeof COLLECTION}`>) =>
    callEndpoint(`POST ${COLLECTION}`, { account_id: accountId }, { body }),
  );
}

export function useUpdateContact(accountId: string) {
  return useContactMutation(accountId, ({ id, ...body }: ContactInput & { id: string }) =>
    callEndpoint(`PUT ${ITEM}`, { account_id: accountId, id_or_email: id }, { body }),
  );
}

export function useSetUnsubscribed(accountId: string) {
  return useContactMutation(accountId, ({ id, unsubscribed }: { id: string; unsubscribed: boolean }) =>
    unsubscribed
      ? callEndpoint(`POST ${ITEM}/unsubscribe`, { account_id: accountId, id_or_email: id })
      : callEndpoint(`POST ${ITEM}/resubscribe`, { account_id: accountId, id_or_email: id }),
  );
}

export function useDeleteContact(accountId: string) {
  return useContactMutation(accountId, (id: string) =>
    callEndpoint(`DELETE ${ITEM}`, { account_id: accountId, id_or_email: id }),
  );
}

export type BulkOutcome = { done: number; failed: { id: string; message: string }[] };

const BULK_PARALLEL = 4;

/**
 * Unsubscribe or delete many contacts: the API acts on one contact per request, so the selection is
 * worked through a few at a time, and what failed is reported instead of stopping at the first error.
 */
export function useBulkContactAction(accountId: string) {
  return useContactMutation(
    accountId,
    async ({ ids, action }: { ids: string[]; action: 'unsubscribe' | 'delete' }): Promise<BulkOutcome> => {
      const outcome: BulkOutcome = { done: 0, failed: [] };
      const queue = [...ids];
      const work = async () => {
        for (let id = queue.shift(); id; id = queue.shift()) {
          const params = { account_id: accountId, id_or_email: id };
          const request =
            action === 'delete'
              ? callEndpoint(`DELETE ${ITEM}`, params)
              : callEndpoint(`POST ${ITEM}/unsubscribe`, params);
          await request.then(
            () => (outcome.done += 1),
            (error: Error) => outcome.failed.push({ id, message: error.message }),
          );
        }
      };
      await Promise.all(Array.from({ length: BULK_PARALLEL }, work));
      return outcome;
    },
  );
}

export function useAttributeDefinitions(accountId: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['contact-attributes', accountId],
    queryFn: () => apiRequest<{ data: AttributeDefinition[] }>(attributesPath(accountId)),
    select: (list) => list.data,
    ...options,
  });
}

function useAttributeMutation<TInput, TResult>(accountId: string, request: (input: TInput) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSettled: () => client.invalidateQueries({ queryKey: ['contact-attributes', accountId] }),
  });
}

export function useCreateAttributeDefinition(accountId: string) {
  return useAttributeMutation(accountId, (body: Pick<AttributeDefinition, 'key' | 'type' | 'label'>) =>
    apiRequest<AttributeDefinition>(attributesPath(accountId), { method: 'POST', body }),
  );
}

export function useUpdateAttributeDefinition(accountId: string) {
  return useAttributeMutation(
    accountId,
    ({ key, ...body }: Pick<AttributeDefinition, 'key'> & Partial<Pick<AttributeDefinition, 'type' | 'label'>>) =>
      apiRequest<AttributeDefinition>(attributesPath(accountId, key), { method: 'PUT', body }),
  );
}

export function useDeleteAttributeDefinition(accountId: string) {
  return useAttributeMutation(accountId, (key: string) =>
    apiRequest<{ message: string }>(attributesPath(accountId, key), { method: 'DELETE' }),
  );
}
