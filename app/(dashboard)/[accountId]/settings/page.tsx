import { AccountSettingsView } from '@/components/views/account-settings-view';

export const metadata = { title: 'Settings' };

export default async function SettingsPage({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  return <AccountSettingsView accountId={accountId} />;
}
