import { ListsView } from '@/components/views/lists-view';

export const metadata = { title: 'Lists' };

export default async function ListsPage({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  return <ListsView accountId={accountId} />;
}
