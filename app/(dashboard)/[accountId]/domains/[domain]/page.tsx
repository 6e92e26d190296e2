import { DomainDetailView } from '@/components/views/domain-detail-view';

export const metadata = { title: 'Domain' };

export default async function DomainPage({ params }: { params: Promise<{ accountId: string; domain: string }> }) {
  const { accountId, domain } = await params;
  return <DomainDetailView accountId={accountId} name={decodeURIComponent(domain)} />;
}
