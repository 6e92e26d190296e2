import { OverviewView } from '@/components/views/overview-view';

export const metadata = { title: 'Overview' };

export default async function OverviewPage({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  return <OverviewView accountId={accountId} />;
}
