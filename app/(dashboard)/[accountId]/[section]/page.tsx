import { notFound } from 'next/navigation';
import { SECTIONS } from '@/components/layout/sections';
import { EmptyState, PageHeader } from '@/components/ui/feedback';

/** Areas of the product whose pages have not been built yet say so plainly. */
export default async function UpcomingSectionPage({ params }: { params: Promise<{ section: string }> }) {
  const { section: slug } = await params;
  const section = SECTIONS.find((candidate) => candidate.slug === slug && !candidate.isBuilt);
  if (!section) notFound();
  return (
    <>
      <PageHeader title={section.label} />
      <EmptyState title={`${section.label} are not in the dashboard yet`}>
        This page arrives with the {section.label.toLowerCase()} capability. Until then, use the v2 API where it already offers them.
      </EmptyState>
    </>
  );
}
