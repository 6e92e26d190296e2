import { pageQuerySchema } from '@/lib/core/shared/pagination';
import { z } from '@/lib/core/zod';

export const listDomainReportsQuerySchema = pageQuerySchema;

const reporterSchema = z.object({ org_name: z.string().nullable(), email: z.string().nullable() });
const dateRangeSchema = z.object({ begin: z.string().datetime().nullable(), end: z.string().datetime().nullable() });
const dayTrendSchema = z.object({
  date: z.string().openapi({ description: 'UTC day, YYYY-MM-DD' }),
  messages: z.number().int(),
  passed: z.number().int(),
  failed: z.number().int(),
});
const rejectedSchema = z
  .object({ id: z.string().uuid(), received_at: z.string().datetime(), reason: z.string() })
  .openapi('RejectedDomainReport');

const dmarcSourceSchema = z
  .object({
    source_ip: z.string(),
    messages: z.number().int(),
    disposition: z.string(),
    header_from: z.string().nullable(),
    dkim: z.object({ result: z.string().nullable(), domain: z.string().nullable(), aligned: z.boolean() }),
    spf: z.object({ result: z.string().nullable(), domain: z.string().nullable(), aligned: z.boolean() }),
    dmarc: z.enum(['pass', 'fail']),
  })
  .openapi('DmarcReportSource');

export const dmarcReportSchema = z
  .object({
    object: z.literal('dmarc_report'),
    id: z.string().uuid(),
    status: z.enum(['stored', 'rejected']),
    rejection_reason: z.string().nullable(),
    reporter: reporterSchema,
    report_id: z.string().nullable(),
    date_range: dateRangeSchema,
    policy_published: z.record(z.string(), z.string().nullable()).nullable(),
    messages: z.number().int(),
    failed_messages: z.number().int(),
    received_at: z.string().datetime(),
    source_count: z.number().int(),
    sources: z.array(dmarcSourceSchema).openapi({ description: 'The busiest 100 sources of the report.' }),
  })
  .openapi('DmarcReport');

const dmarcSummarySourceSchema = z
  .object({
    source_ip: z.string(),
    reverse_name: z.string().nullable().openapi({ description: 'PTR name of the address, when it has one.' }),
    messages: z.number().int(),
    spf_aligned: z.number().int(),
    dkim_aligned: z.number().int(),
    dmarc_passed: z.number().int(),
    dispositions: z.object({ none: z.number().int(), quarantine: z.number().int(), reject: z.number().int() }),
    is_unknown_sender: z.boolean().openapi({
      description: 'Most of its messages fail DMARC: not a sender you set up, or one that is misconfigured.',
    }),
  })
  .openapi('DmarcSummarySource');

export const dmarcSummarySchema = z
  .object({
    period_days: z.number().int(),
    reports: z.number().int(),
    rejected_reports: z.number().int(),
    messages: z.number().int(),
    dmarc_pass_share: z
      .number()
      .nullable()
      .openapi({ description: 'Share of messages passing DMARC, 0-1; null with no messages.' }),
    spf_aligned_share: z.number().nullable(),
    dkim_aligned_share: z.number().nullable(),
    unknown_senders: z.number().int(),
    sources: z.array(dmarcSummarySourceSchema),
    trend: z.array(dayTrendSchema),
    rejected: z.array(rejectedSchema),
  })
  .openapi('DmarcReportsSummary');

const tlsPolicySchema = z
  .object({
    policy_type: z.string(),
    policy_domain: z.string(),
    successful_sessions: z.number().int(),
    failed_sessions: z.number().int(),
    failures: z.array(
      z.object({
        result_type: z.string(),
        sending_mta_ip: z.string().nullable(),
        receiving_mx_hostname: z.string().nullable(),
        count: z.number().int(),
      }),
    ),
  })
  .openapi('TlsReportPolicy');

export const tlsReportSchema = z
  .object({
    object: z.literal('tls_report'),
    id: z.string().uuid(),
    status: z.enum(['stored', 'rejected']),
    rejection_reason: z.string().nullable(),
    reporter: reporterSchema,
    report_id: z.string().nullable(),
    date_range: dateRangeSchema,
    successful_sessions: z.number().int(),
    failed_sessions: z.number().int(),
    received_at: z.string().datetime(),
    policies: z.array(tlsPolicySchema),
  })
  .openapi('TlsReport');

export const tlsSummarySchema = z
  .object({
    period_days: z.number().int(),
    reports: z.number().int(),
    rejected_reports: z.number().int(),
    successful_sessions: z.number().int(),
    failed_sessions: z.number().int(),
    success_share: z.number().nullable(),
    policies: z.array(
      z.object({
        policy_type: z.string(),
        policy_domain: z.string(),
        successful_sessions: z.number().int(),
        failed_sessions: z.number().int(),
      }),
    ),
    failure_types: z.array(z.object({ result_type: z.string(), sessions: z.number().int() })),
    trend: z.array(dayTrendSchema),
    rejected: z.array(rejectedSchema),
  })
  .openapi('TlsReportsSummary');

export type DmarcSummary = z.output<typeof dmarcSummarySchema>;
export type TlsSummary = z.output<typeof tlsSummarySchema>;
