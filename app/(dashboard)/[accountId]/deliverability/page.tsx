import { Suspense } from 'react';
import { LoadingState } from '@/components/ui/feedback';
import { DeliverabilityView } from '@/components/views/deliverability-view';

export const metadata = { title: 'Deliverability' };

export default async function DeliverabilityPage({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  return (
    <Suspense fallback={<LoadingState />}>
      <DeliverabilityView accountId={accountId} />
    </Suspense>
  );
}
