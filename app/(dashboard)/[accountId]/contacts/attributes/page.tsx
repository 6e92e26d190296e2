import { ContactAttributesView } from '@/components/views/contact-attributes-view';

export const metadata = { title: 'Contact attributes' };

export default async function ContactAttributesPage({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  return <ContactAttributesView accountId={accountId} />;
}
