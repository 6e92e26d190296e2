import { notFound } from 'next/navigation';
import { TemplateDetailView } from '@/components/views/template-detail-view';

export const metadata = { title: 'Template' };

export default async function TemplatePage({ params }: { params: Promise<{ accountId: string; templateId: string }> }) {
  const { accountId, templateId } = await params;
  if (!/^[0-9a-f-]{36}$/i.test(templateId)) notFound();
  return <TemplateDetailView accountId={accountId} templateId={templateId} />;
}
