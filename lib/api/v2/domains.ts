import { checkDomainDns } from '@/lib/core/domains/check-domain-dns';
import { createDomain } from '@/lib/core/domains/create-domain';
import { deleteDomain } from '@/lib/core/domains/delete-domain';
import { getDomain } from '@/lib/core/domains/get-domain';
import { listDomains } from '@/lib/core/domains/list-domains';
import { rotateDomainDkim } from '@/lib/core/domains/rotate-domain-dkim';
import {
  createDomainSchema,
  domainSchema,
  listDomainsQuerySchema,
  updateDomainSchema,
} from '@/lib/core/domains/schemas';
import { unpauseDomain } from '@/lib/core/domains/unpause-domain';
import { updateDomain } from '@/lib/core/domains/update-domain';
import type { Page } from '@/lib/core/shared/pagination';
import type { Endpoint } from '../endpoint';
import { listEnvelopeSchema, presentPage } from '../pagination';
import { successResponseSchema } from '../schemas';

const collection = '/v2/accounts/{account_id}/domains' as const;
const item = `${collection}/{domain}` as const;
const tags = ['Domains'];

export const domainEndpoints = [
  {
    method: 'get',
    path: collection,
    verb: listDomains,
    status: 200,
    summary: 'List domains',
    tags,
    query: listDomainsQuerySchema,
    response: listEnvelopeSchema(domainSchema, 'PaginatedDomainsResponse'),
    input: ({ query }) => query,
    present: (page: Page<unknown>) => presentPage(page),
  },
  {
    method: 'post',
    path: collection,
    verb: createDomain,
    status: 201,
    summary: 'Create domain',
    tags,
    body: createDomainSchema,
    response: domainSchema,
    input: ({ body }) => body,
    idempotency: 'standard',
  },
  { method: 'get', path: item, verb: getDomain, status: 200, summary: 'Get domain', tags, response: domainSchema },
  {
    method: 'put',
    path: item,
    verb: updateDomain,
    status: 200,
    summary: 'Update domain',
    tags,
    body: updateDomainSchema,
    response: domainSchema,
    input: ({ body, params }) => ({ ...body, domain: params.domain }),
  },
  {
    method: 'delete',
    path: item,
    verb: deleteDomain,
    status: 200,
    summary: 'Delete domain',
    tags,
    response: successResponseSchema,
  },
  {
    method: 'post',
    path: `${item}/check-dns` as const,
    verb: checkDomainDns,
    status: 200,
    summary: 'Check DNS records now',
    tags,
    response: domainSchema,
    input: ({ params }) => ({ domain: params.domain }),
  },
  {
    method: 'post',
    path: `${item}/rotate-dkim` as const,
    verb: rotateDomainDkim,
    status: 200,
    summary: 'Rotate DKIM: the published standby key becomes active',
    tags,
    response: domainSchema,
    input: ({ params }) => ({ domain: params.domain }),
    isExtension: true,
  },
  {
    method: 'post',
    path: `${item}/unpause` as const,
    verb: unpauseDomain,
    status: 200,
    summary: 'Unpause a domain paused for its bounce rate',
    tags,
    response: domainSchema,
    input: ({ params }) => ({ domain: params.domain }),
    isExtension: true,
  },
] satisfies Endpoint[];
