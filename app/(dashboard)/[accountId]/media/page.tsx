import { MediaView } from '@/components/views/media-view';

export const metadata = { title: 'Media' };

export default async function MediaPage({ params }: { params: Promise<{ accountId: string }> }) {
  const { accountId } = await params;
  return <MediaView accountId={accountId} />;
}
