import Link from 'next/link';
import { notFound } from 'next/navigation';
import { SECTIONS } from '@/components/layout/sections';
import { EmptyState, PageHeader } from '@/components/ui/feedback';

/** Areas of the product whose pages have not been built yet say so plainly, and what works today. */
export default async function UpcomingSectionPage({ params }: { params: Promise<{ accountId: string; section: string }> }) {
  const { accountId, section: slug } = await params;
  const section = SECTIONS.find((candidate) => candidate.slug === slug && !candidate.isBuilt);
  if (!section) notFound();
  return (
    <>
      <PageHeader title={section.label} />
      <EmptyState title={`${section.label} are not in the dashboard yet`} action={<Link href={`/${accountId}`} className="text-sm font-medium text-brand-700 hover:underline">Back to the Overview</Link>}>
        <p>{section.meanwhile}</p>
        {section.command ? (
          <pre className="mt-3 whitespace-pre-wrap rounded-md bg-slate-900 px-3 py-2 text-left font-mono text-xs text-slate-100 wrap-anywhere">
            <code>{section.command.replace('<account id>', accountId)}</code>
          </pre>
        ) : null}
      </EmptyState>
    </>
  );
}
