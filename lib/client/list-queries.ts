'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from './use-query';
import { callEndpoint, type RequestOf, type ResponseOf } from './endpoints';
import { formatCount } from './format';
import type { SubscriptionStatus } from './types';

const COLLECTION = '/v2/accounts/{account_id}/lists';
const ITEM = '/v2/accounts/{account_id}/lists/{list_id}';
const MEMBERS = '/v2/accounts/{account_id}/lists/{list_id}/members';
const MEMBER = '/v2/accounts/{account_id}/lists/{list_id}/members/{id_or_email}';

/** The API's cap on contacts in one bulk add. */
export const MEMBERS_PER_REQUEST = 1000;

export type ListInput = RequestOf<`POST ${typeof COLLECTION}`>;

export function useLists(accountId: string, query = 'limit=100', options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['lists', accountId, query],
    queryFn: () => callEndpoint(`GET ${COLLECTION}`, { account_id: accountId }, { query }),
    ...options,
  });
}

export function useList(accountId: string, listId: string) {
  return useQuery({
    queryKey: ['list', accountId, listId],
    queryFn: () => callEndpoint(`GET ${ITEM}`, { account_id: accountId, list_id: listId }),
  });
}

/** `query`: `subscription_status`, `after`, `before`, `limit`; contacts are always included (names and emails to show). */
export function useListMembers(accountId: string, listId: string, query: string) {
  return useQuery({
    queryKey: ['list-members', accountId, listId, query],
    queryFn: () =>
      callEndpoint(
        `GET ${MEMBERS}`,
        { account_id: accountId, list_id: listId },
        { query: `include_contacts=true&${query}` },
      ),
  });
}

function useListMutation<TInput, TResult>(accountId: string, request: (input: TInput) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSettled: () => {
      for (const key of ['lists', 'list', 'list-members', 'contact-lists', 'list-totals'])
        void client.invalidateQueries({ queryKey: [key, accountId] });
    },
  });
}

export function useCreateList(accountId: string) {
  return useListMutation(accountId, (body: ListInput) =>
    callEndpoint(`POST ${COLLECTION}`, { account_id: accountId }, { body }),
  );
}

export function useUpdateList(accountId: string) {
  return useListMutation(accountId, ({ id, ...body }: RequestOf<`PUT ${typeof ITEM}`> & { id: string }) =>
    callEndpoint(`PUT ${ITEM}`, { account_id: accountId, list_id: id }, { body }),
  );
}

export function useDeleteList(accountId: string) {
  return useListMutation(accountId, (id: string) =>
    callEndpoint(`DELETE ${ITEM}`, { account_id: accountId, list_id: id }),
  );
}

export type AddMembersOutcome = { added: number; batches: number };

/**
 * Adds contacts (ids or emails) to a list, 1,000 per request (the API's cap), in order. A failing
 * batch stops the run: the error says how many were added before it.
 */
export function useAddMembers(accountId: string) {
  return useListMutation(
    accountId,
    async ({
      listId,
      contacts,
      status,
    }: {
      listId: string;
      contacts: string[];
      status?: SubscriptionStatus;
    }): Promise<AddMembersOutcome> => {
      let added = 0;
      let batches = 0;
      for (let start = 0; start < contacts.length; start += MEMBERS_PER_REQUEST) {
        const batch = contacts.slice(start, start + MEMBERS_PER_REQUEST);
        try {
          await callEndpoint(
            `POST ${MEMBERS}`,
            { account_id: accountId, list_id: listId },
            { body: { contacts: batch, ...(status ? { subscription_status: status } : {}) } },
          );
        } catch (error) {
          if (added > 0 && error instanceof Error)
            error.message = `${error.message} (the first ${added.toLocaleString()} were added)`;
          throw error;
        }
        added += batch.length;
        batches += 1;
      }
      return { added, batches };
    },
  );
}

export type PasteRefusal = ResponseOf<`POST ${typeof MEMBERS}/paste`>['refused'][number];
export type PasteMembersOutcome = { added: number; createdContacts: number; refused: PasteRefusal[] };

/**
 * Adds pasted lines to a list, 1,000 per request, line by line: the valid ones are added and each
 * other one comes back with its reason. A failing request stops the run, saying how far it got.
 */
export function usePasteMembers(accountId: string) {
  return useListMutation(
    accountId,
    async ({
      listId,
      lines,
      status,
      createMissing,
    }: {
      listId: string;
      lines: string[];
      status?: SubscriptionStatus;
      createMissing: boolean;
    }): Promise<PasteMembersOutcome> => {
      const outcome: PasteMembersOutcome = { added: 0, createdContacts: 0, refused: [] };
      for (let start = 0; start < lines.length; start += MEMBERS_PER_REQUEST) {
        const body = {
          lines: lines.slice(start, start + MEMBERS_PER_REQUEST),
          create_missing: createMissing,
          ...(status ? { subscription_status: status } : {}),
        };
        try {
          const answer = await callEndpoint(
            `POST ${MEMBERS}/paste`,
            { account_id: accountId, list_id: listId },
            { body },
          );
          outcome.added += answer.added;
          outcome.createdContacts += answer.created_contacts;
          outcome.refused.push(...answer.refused);
        } catch (error) {
          if (start > 0 && error instanceof Error)
            error.message = `${error.message} (the first ${formatCount(start)} lines were handled: ${formatCount(outcome.added)} added)`;
          throw error;
        }
      }
      return outcome;
    },
  );
}

export function useUpdateMember(accountId: string) {
  return useListMutation(
    accountId,
    ({ listId, contactId, status }: { listId: string; contactId: string; status: SubscriptionStatus }) =>
      callEndpoint(
        `PUT ${MEMBER}`,
        { account_id: accountId, list_id: listId, id_or_email: contactId },
        { body: { subscription_status: status } },
      ),
  );
}

export function useRemoveMember(accountId: string) {
  return useListMutation(accountId, ({ listId, contactId }: { listId: string; contactId: string }) =>
    callEndpoint(`DELETE ${MEMBER}`, { account_id: accountId, list_id: listId, id_or_email: contactId }),
  );
}
