import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { endpointPath, type EndpointKey, type ParamsOf, type RequestOf, type ResponseOf } from '@/lib/client/endpoints';
import type { ListEnvelope, RouteObject } from '@/lib/client/types';
import type { createListSchema } from '@/lib/core/lists/schemas';

describe('the client types derived from the v2 endpoint table', () => {
  it('names each endpoint by method and path, and refuses one the table does not have', () => {
    expectTypeOf<'POST /v2/accounts/{account_id}/lists'>().toExtend<EndpointKey>();
    expectTypeOf<'PATCH /v2/accounts/{account_id}/lists'>().not.toExtend<EndpointKey>();
  });

  it('types a request body by the schema the verb validates with', () => {
    expectTypeOf<RequestOf<'POST /v2/accounts/{account_id}/lists'>>().toEqualTypeOf<z.input<typeof createListSchema>>();
  });

  it("types an answer by the verb's presented result, a page as the list envelope", () => {
    expectTypeOf<ResponseOf<'GET /v2/accounts/{account_id}/routes/{route_id}'>>().toEqualTypeOf<RouteObject>();
    expectTypeOf<ResponseOf<'GET /v2/accounts/{account_id}/routes'>>().toEqualTypeOf<ListEnvelope<RouteObject>>();
  });

  it("asks for exactly the path's parameters", () => {
    expectTypeOf<ParamsOf<'DELETE /v2/accounts/{account_id}/lists/{list_id}/members/{id_or_email}'>>().toEqualTypeOf<{
      account_id: string;
      list_id: string;
      id_or_email: string;
    }>();
  });
});

describe('endpointPath', () => {
  it('fills each parameter, percent-encoded, and keeps the rest of the path', () => {
    expect(
      endpointPath('PUT /v2/accounts/{account_id}/lists/{list_id}/members/{id_or_email}', {
        account_id: 'acc',
        list_id: 'l1',
        id_or_email: 'a+b@example.com',
      }),
    ).toBe('/v2/accounts/acc/lists/l1/members/a%2Bb%40example.com');
  });
});
