import { DomainsView } from '@/components/views/domains-view';

export const metadata = { title: 'Domains' };

export default async function DomainsPage({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  return <DomainsView accountId={accountId} />;
}
