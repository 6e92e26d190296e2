import { Suspense } from 'react';
import { LoadingState } from '@/components/ui/feedback';
import { ContactImportView } from '@/components/views/contact-import-view';

export const metadata = { title: 'Import contacts' };

export default async function ContactImportPage({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  return (
    <Suspense fallback={<LoadingState />}>
      <ContactImportView accountId={accountId} />
    </Suspense>
  );
}
