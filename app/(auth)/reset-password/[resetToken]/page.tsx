import { ResetPasswordForm } from '@/components/forms/reset-password-form';

export const dynamic = 'force-dynamic';
// The token is in this page's URL: no request from it may carry the URL elsewhere.
export const metadata = { title: 'Choose a new password', referrer: 'no-referrer' as const };

export default async function ResetPasswordPage({ params }: { params: Promise<{ resetToken: string }> }) {
  const { resetToken } = await params;
  return <ResetPasswordForm token={resetToken} />;
}
