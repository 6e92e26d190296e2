import { MessageDetailView } from '@/components/views/message-detail-view';

export const metadata = { title: 'Message' };

export default async function MessagePage({ params }: { params: Promise<{ accountId: string; messageId: string }> }) {
  const { accountId, messageId } = await params;
  return <MessageDetailView accountId={accountId} messageId={decodeURIComponent(messageId)} />;
}
