import { notFound } from 'next/navigation';
import { ContactDetailView } from '@/components/views/contact-detail-view';

export const metadata = { title: 'Contact' };

export default async function ContactPage({ params }: { params: Promise<{ accountId: string; contactId: string }> }) {
  const { accountId, contactId } = await params;
  if (!/^[0-9a-f-]{36}$/i.test(contactId)) notFound();
  return <ContactDetailView accountId={accountId} contactId={contactId} />;
}
