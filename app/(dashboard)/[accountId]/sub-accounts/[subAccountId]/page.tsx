import { notFound } from 'next/navigation';
import { SubAccountDetailView } from '@/components/views/sub-account-detail-view';

export const metadata = { title: 'Sub account' };

export default async function SubAccountPage({
  params,
}: {
  params: Promise<{ accountId: string; subAccountId: string }>;
}) {
  const { accountId, subAccountId } = await params;
  if (!/^[0-9a-f-]{36}$/i.test(subAccountId)) notFound();
  return <SubAccountDetailView accountId={accountId} subAccountId={subAccountId} />;
}
