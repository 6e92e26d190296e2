import { ProfileView } from '@/components/views/profile-view';

export const metadata = { title: 'Profile' };

export default function ProfilePage() {
  return <ProfileView />;
}
