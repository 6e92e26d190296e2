import { SmtpCredentialsView } from '@/components/views/smtp-credentials-view';

export const metadata = { title: 'SMTP credentials' };

export default async function SmtpCredentialsPage({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  return <SmtpCredentialsView accountId={accountId} />;
}
