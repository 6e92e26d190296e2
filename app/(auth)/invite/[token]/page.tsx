import { AcceptInvitationForm } from '@/components/forms/accept-invitation-form';

export const dynamic = 'force-dynamic';
// The token is in this page's URL: no request from it may carry the URL elsewhere.
export const metadata = { title: 'Join an account', referrer: 'no-referrer' as const };

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return <AcceptInvitationForm token={token} />;
}
