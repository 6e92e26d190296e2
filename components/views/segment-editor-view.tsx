'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { SegmentBuilderForm } from '@/components/forms/segment-builder-form';
import { Alert, LoadingState, PageHeader } from '@/components/ui/feedback';
import { ApiError } from '@/lib/client/api';
import { useAttributeDefinitions } from '@/lib/client/contact-queries';
import { useSegment } from '@/lib/client/segment-queries';

/** The builder, for a new segment (`segmentId` null) or an existing one. */
export function SegmentEditorView({ accountId, segmentId }: { accountId: string; segmentId: string | null }) {
  const router = useRouter();
  const definitions = useAttributeDefinitions(accountId);
  const segment = useSegment(accountId, segmentId ?? '', { enabled: segmentId !== null });
  const back = (
    <Link href={`/${accountId}/segments`} className="text-sm text-brand-700 hover:underline">
      All segments
    </Link>
  );
  // The saved filter is read into inputs by attribute type, so the definitions come first.
  if (definitions.isPending || (segmentId && segment.isPending)) return <LoadingState label="Loading segment…" />;
  if (segmentId && segment.error) {
    const code = segment.error instanceof ApiError ? segment.error.status : 0;
    return (
      <Alert
        tone={code === 404 ? 'warning' : 'error'}
        title={code === 404 ? 'No such segment' : 'This segment could not be shown'}
      >
        {segment.error.message} {back}
      </Alert>
    );
  }
  return (
    <>
      <PageHeader title={segmentId ? `Edit ${segment.data?.name ?? 'segment'}` : 'New segment'} description={back} />
      <SegmentBuilderForm
        accountId={accountId}
        segment={segmentId ? (segment.data ?? null) : null}
        onSaved={(saved) => router.push(`/${accountId}/segments/${saved.id}`)}
      />
    </>
  );
}
