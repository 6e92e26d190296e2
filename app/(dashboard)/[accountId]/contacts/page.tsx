import { Suspense } from 'react';
import { LoadingState } from '@/components/ui/feedback';
import { ContactsView } from '@/components/views/contacts-view';

export const metadata = { title: 'Contacts' };

export default async function ContactsPage({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  return (
    <Suspense fallback={<LoadingState />}>
      <ContactsView accountId={accountId} />
    </Suspense>
  );
}
