import { SubAccountsView } from '@/components/views/sub-accounts-view';

export const metadata = { title: 'Sub accounts' };

export default async function SubAccountsPage({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  return <SubAccountsView accountId={accountId} />;
}
