import { Suspense } from 'react';
import { LoadingState } from '@/components/ui/feedback';
import { ActivityView } from '@/components/views/activity-view';

export const metadata = { title: 'Activity' };

export default async function ActivityPage({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  return (
    <Suspense fallback={<LoadingState />}>
      <ActivityView accountId={accountId} />
    </Suspense>
  );
}
