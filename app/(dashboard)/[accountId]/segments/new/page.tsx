import { SegmentEditorView } from '@/components/views/segment-editor-view';

export const metadata = { title: 'New segment' };

export default async function NewSegmentPage({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  return <SegmentEditorView accountId={accountId} segmentId={null} />;
}
