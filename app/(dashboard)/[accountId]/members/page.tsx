import { MembersView } from '@/components/views/members-view';

export const metadata = { title: 'Members' };

export default async function MembersPage({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  return <MembersView accountId={accountId} />;
}
