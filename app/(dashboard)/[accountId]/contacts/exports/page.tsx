import { Suspense } from 'react';
import { LoadingState } from '@/components/ui/feedback';
import { ContactExportsView } from '@/components/views/contact-exports-view';

export const metadata = { title: 'Contact exports' };

export default async function ContactExportsPage({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  return (
    <Suspense fallback={<LoadingState />}>
      <ContactExportsView accountId={accountId} />
    </Suspense>
  );
}
