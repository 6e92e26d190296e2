import { notFound } from 'next/navigation';
import { SegmentDetailView } from '@/components/views/segment-detail-view';

export const metadata = { title: 'Segment' };

export default async function SegmentPage({ params }: { params: Promise<{ accountId: string; segmentId: string }> }) {
  const { accountId, segmentId } = await params;
  if (!/^[0-9a-f-]{36}$/i.test(segmentId)) notFound();
  return <SegmentDetailView accountId={accountId} segmentId={segmentId} />;
}
