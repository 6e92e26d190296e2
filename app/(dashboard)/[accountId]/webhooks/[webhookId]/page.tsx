import { notFound } from 'next/navigation';
import { WebhookDetailView } from '@/components/views/webhook-detail-view';

export const metadata = { title: 'Webhook' };

export default async function WebhookPage({ params }: { params: Promise<{ accountId: string; webhookId: string }> }) {
  const { accountId, webhookId } = await params;
  if (!/^[0-9a-f-]{36}$/i.test(webhookId)) notFound();
  return <WebhookDetailView accountId={accountId} webhookId={webhookId} />;
}
