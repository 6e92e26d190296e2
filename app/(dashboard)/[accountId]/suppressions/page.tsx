import { Suspense } from 'react';
import { LoadingState } from '@/components/ui/feedback';
import { SuppressionsView } from '@/components/views/suppressions-view';

export const metadata = { title: 'Suppressions' };

export default async function SuppressionsPage({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  return (
    <Suspense fallback={<LoadingState />}>
      <SuppressionsView accountId={accountId} />
    </Suspense>
  );
}
