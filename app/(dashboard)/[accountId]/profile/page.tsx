import { TwoFactorSection } from '@/components/profile/two-factor-section';
import { PageHeader } from '@/components/ui/feedback';

export const metadata = { title: 'Profile' };

/** The signed-in person's own settings, one section each. */
export default function ProfilePage() {
  return (
    <>
      <PageHeader title="Profile" description="How you sign in to Mailstead." />
      <TwoFactorSection />
    </>
  );
}
