import { SignupFormsView } from '@/components/views/signup-forms-view';

export const metadata = { title: 'Signup forms' };

export default async function SignupFormsPage({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  return <SignupFormsView accountId={accountId} />;
}
