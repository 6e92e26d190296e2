import { ApiKeysView } from '@/components/views/api-keys-view';

export const metadata = { title: 'API keys' };

export default async function ApiKeysPage({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  return <ApiKeysView accountId={accountId} />;
}
