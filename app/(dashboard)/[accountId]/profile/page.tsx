import { NotificationsSection } from '@/components/profile/notifications-section';
import { PageHeader } from '@/components/ui/feedback';

export const metadata = { title: 'Profile' };

/** The signed-in person's own settings, one section component each. */
export default function ProfilePage() {
  return (
    <>
      <PageHeader title="Profile" description="Your own settings, the same in every account you belong to." />
      <div className="max-w-3xl space-y-6">
        <NotificationsSection />
      </div>
    </>
  );
}
