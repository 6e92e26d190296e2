import { RoutesView } from '@/components/views/routes-view';

export const metadata = { title: 'Routes' };

export default async function RoutesPage({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  return <RoutesView accountId={accountId} />;
}
