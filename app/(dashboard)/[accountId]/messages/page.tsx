import { Suspense } from 'react';
import { LoadingState } from '@/components/ui/feedback';
import { MessagesView } from '@/components/views/messages-view';

export const metadata = { title: 'Messages' };

export default async function MessagesPage({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  return (
    <Suspense fallback={<LoadingState />}>
      <MessagesView accountId={accountId} />
    </Suspense>
  );
}
