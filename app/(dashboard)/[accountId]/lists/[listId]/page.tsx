import { notFound } from 'next/navigation';
import { ListDetailView } from '@/components/views/list-detail-view';

export const metadata = { title: 'List' };

export default async function ListPage({ params }: { params: Promise<{ accountId: string; listId: string }> }) {
  const { accountId, listId } = await params;
  if (!/^[0-9a-f-]{36}$/i.test(listId)) notFound();
  return <ListDetailView accountId={accountId} listId={listId} />;
}
