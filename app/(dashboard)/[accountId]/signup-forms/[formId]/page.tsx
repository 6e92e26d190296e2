import { notFound } from 'next/navigation';
import { SignupFormDetailView } from '@/components/views/signup-form-detail-view';

export const metadata = { title: 'Signup form' };

export default async function SignupFormPage({ params }: { params: Promise<{ accountId: string; formId: string }> }) {
  const { accountId, formId } = await params;
  if (!/^[0-9a-f-]{36}$/i.test(formId)) notFound();
  return <SignupFormDetailView accountId={accountId} formId={formId} />;
}
