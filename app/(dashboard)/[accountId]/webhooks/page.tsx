import { WebhooksView } from '@/components/views/webhooks-view';

export const metadata = { title: 'Webhooks' };

export default async function WebhooksPage({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  return <WebhooksView accountId={accountId} />;
}
