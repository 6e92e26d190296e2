import { CampaignsView } from '@/components/views/campaigns-view';

export const metadata = { title: 'Campaigns' };

export default async function CampaignsPage({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  return <CampaignsView accountId={accountId} />;
}
