import { notFound } from 'next/navigation';
import { SegmentEditorView } from '@/components/views/segment-editor-view';

export const metadata = { title: 'Edit segment' };

export default async function EditSegmentPage({
  params,
}: {
  params: Promise<{ accountId: string; segmentId: string }>;
}) {
  const { accountId, segmentId } = await params;
  if (!/^[0-9a-f-]{36}$/i.test(segmentId)) notFound();
  return <SegmentEditorView accountId={accountId} segmentId={segmentId} />;
}
