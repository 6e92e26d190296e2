import { SegmentsView } from '@/components/views/segments-view';

export const metadata = { title: 'Segments' };

export default async function SegmentsPage({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  return <SegmentsView accountId={accountId} />;
}
