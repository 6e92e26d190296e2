import Link from 'next/link';
import { PageHeader } from '@/components/ui/feedback';

export const metadata = { title: 'Overview' };

export default async function OverviewPage({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  const steps = [
    { title: 'Create an API key', body: 'Keys authenticate your applications against the v2 API. Give each key only the scopes it needs.', href: `/${accountId}/api-keys` },
    { title: 'Add a sending domain', body: 'Publish the DNS records Mailstead shows you (SPF, DKIM, DMARC) and check them.', href: `/${accountId}/domains` },
    { title: 'Review account settings', body: 'Tracking defaults and how long message data is kept.', href: `/${accountId}/settings` },
  ];
  return (
    <>
      <PageHeader title="Overview" description="Get this account ready to send." />
      <ol className="grid gap-4 md:grid-cols-3">
        {steps.map((step, index) => (
          <li key={step.title} className="rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200">
            <p className="text-xs font-semibold text-slate-400">Step {index + 1}</p>
            <Link href={step.href} className="mt-1 block font-semibold text-brand-700 hover:underline">
              {step.title}
            </Link>
            <p className="mt-2 text-sm text-slate-600">{step.body}</p>
          </li>
        ))}
      </ol>
    </>
  );
}
