import { notFound } from 'next/navigation';
import { CampaignDetailView } from '@/components/views/campaign-detail-view';

export const metadata = { title: 'Campaign' };

export default async function CampaignPage({ params }: { params: Promise<{ accountId: string; campaignId: string }> }) {
  const { accountId, campaignId } = await params;
  if (!/^[0-9a-f-]{36}$/i.test(campaignId)) notFound();
  return <CampaignDetailView accountId={accountId} campaignId={campaignId} />;
}
