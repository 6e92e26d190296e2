import { TemplatesView } from '@/components/views/templates-view';

export const metadata = { title: 'Templates' };

export default async function TemplatesPage({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  return <TemplatesView accountId={accountId} />;
}
