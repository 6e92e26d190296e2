import { ForgotPasswordForm } from '@/components/forms/forgot-password-form';
import { dashboardAuth } from '@/lib/dashboard/server-auth';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Forgot password' };

export default function ForgotPasswordPage() {
  return <ForgotPasswordForm isMailed={dashboardAuth().isPasswordResetMailed()} />;
}
