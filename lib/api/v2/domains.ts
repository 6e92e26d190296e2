import { listDmarcReports } from '@/lib/core/domain-reports/list-dmarc-reports';
import { listTlsReports } from '@/lib/core/domain-reports/list-tls-reports';
import {
  dmarcReportSchema,
  dmarcSummarySchema,
  type DmarcSummary,
  type TlsSummary,
  listDomainReportsQuerySchema,
  tlsReportSchema,
  tlsSummarySchema,
} from '@/lib/core/domain-reports/schemas';
import { checkDomainDns } from '@/lib/core/domains/check-domain-dns';
import { createDomain } from '@/lib/core/domains/create-domain';
import { deleteDomain } from '@/lib/core/domains/delete-domain';
import { getDomain } from '@/lib/core/domains/get-domain';
import { getDomainProviderChecklist } from '@/lib/core/domains/get-domain-provider-checklist';
import { getDomainWarmup } from '@/lib/core/domains/get-domain-warmup';
import { listDomains } from '@/lib/core/domains/list-domains';
import { rotateDomainDkim } from '@/lib/core/domains/rotate-domain-dkim';
import {
  createDomainSchema,
  domainSchema,
  domainWarmupSchema,
  listDomainsQuerySchema,
  providerChecklistSchema,
  updateDomainSchema,
} from '@/lib/core/domains/schemas';
import { unpauseDomain } from '@/lib/core/domains/unpause-domain';
import { updateDomain } from '@/lib/core/domains/update-domain';
import type { Page } from '@/lib/core/shared/pagination';
import type { z } from '@/lib/core/zod';
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
    method: 'get',
    path: `${item}/provider-checklist` as const,
    verb: getDomainProviderChecklist,
    status: 200,
    summary: 'Measured Gmail/Yahoo sender requirements of a domain',
    description:
      'Mailstead extension: what the mailbox providers measure, from the last 30 days of the domain: one-click unsubscribe on campaign messages, the complaint rate from ARF reports (0.1% warn, 0.3% fail) and TLS on delivery. Each item has a status (pass, warn, fail, unknown), the measured value and the threshold.',
    isExtension: true,
    tags,
    response: providerChecklistSchema,
  },
  {
    method: 'get',
    path: `${item}/warmup` as const,
    verb: getDomainWarmup,
    status: 200,
    summary: "Today's warm-up of a domain: day of the plan, and per provider the limit, messages sent and held",
    description:
      "Mailstead extension: while warm-up is on (`warmup` on PUT …/domains/{domain}), mail to a provider beyond the day's limit stays queued until the next UTC day. Counts are per UTC day.",
    isExtension: true,
    tags,
    response: domainWarmupSchema,
  },
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
  {
    method: 'get',
    path: `${item}/dmarc-reports` as const,
    verb: listDmarcReports,
    status: 200,
    summary: 'List DMARC aggregate reports received for the domain, with a 30-day summary',
    tags,
    query: listDomainReportsQuerySchema,
    response: listEnvelopeSchema(dmarcReportSchema, 'PaginatedDmarcReportsResponse')
      .extend({ summary: dmarcSummarySchema })
      .openapi('DmarcReportsResponse'),
    input: ({ query, params }) => ({ ...query, domain: params.domain }),
    present: ({ page, summary }: { page: Page<z.output<typeof dmarcReportSchema>>; summary: DmarcSummary }) => ({
      ...presentPage(page),
      summary,
    }),
    isExtension: true,
  },
  {
    method: 'get',
    path: `${item}/tls-reports` as const,
    verb: listTlsReports,
    status: 200,
    summary: 'List TLS reports (RFC 8460) received for the domain, with a 30-day summary',
    tags,
    query: listDomainReportsQuerySchema,
    response: listEnvelopeSchema(tlsReportSchema, 'PaginatedTlsReportsResponse')
      .extend({ summary: tlsSummarySchema })
      .openapi('TlsReportsResponse'),
    input: ({ query, params }) => ({ ...query, domain: params.domain }),
    present: ({ page, summary }: { page: Page<z.output<typeof tlsReportSchema>>; summary: TlsSummary }) => ({
      ...presentPage(page),
      summary,
    }),
    isExtension: true,
  },
] satisfies Endpoint[];
