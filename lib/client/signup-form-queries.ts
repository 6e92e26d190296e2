'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from './use-query';
import { callEndpoint, type RequestOf, type ResponseOf } from './endpoints';

const COLLECTION = '/v2/accounts/{account_id}/signup-forms';
const ITEM = '/v2/accounts/{account_id}/signup-forms/{form_id}';

export type SignupFormInput = RequestOf<`POST ${typeof COLLECTION}`>;
export type SignupFormObject = ResponseOf<`GET ${typeof ITEM}`>;

export function useSignupForms(accountId: string, query = 'limit=50') {
  return useQuery({
    queryKey: ['signup-forms', accountId, query],
    queryFn: () => callEndpoint(`GET ${COLLECTION}`, { account_id: accountId }, { query }),
  });
}

export function useSignupForm(accountId: string, formId: string) {
  return useQuery({
    queryKey: ['signup-form', accountId, formId],
    queryFn: () => callEndpoint(`GET ${ITEM}`, { account_id: accountId, form_id: formId }),
  });
}

function useSignupFormMutation<TInput, TResult>(accountId: string, request: (input: TInput) => Promise<TResult>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSettled: () => {
      for (const key of ['signup-forms', 'signup-form']) void client.invalidateQueries({ queryKey: [key, accountId] });
    },
  });
}

export function useCreateSignupForm(accountId: string) {
  return useSignupFormMutation(accountId, (body: SignupFormInput) =>
    callEndpoint(`POST ${COLLECTION}`, { account_id: accountId }, { body }),
  );
}

export function useUpdateSignupForm(accountId: string) {
  return useSignupFormMutation(accountId, ({ id, ...body }: RequestOf<`PUT ${typeof ITEM}`> & { id: string }) =>
    callEndpoint(`PUT ${ITEM}`, { account_id: accountId, form_id: id }, { body }),
  );
}

export function useDeleteSignupForm(accountId: string) {
  return useSignupFormMutation(accountId, (id: string) =>
    callEndpoint(`DELETE ${ITEM}`, { account_id: accountId, form_id: id }),
  );
}
