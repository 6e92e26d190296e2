'use client';

import { useState } from 'react';
import { ImagePicker, type PickedImage } from '@/components/media/image-picker';
import { MediaCard } from '@/components/media/media-card';
import { MediaUploadButton } from '@/components/media/media-upload-button';
import { useAccountScopes } from '@/components/layout/use-account-scopes';
import { Button } from '@/components/ui/button';
import { CursorPager, useCursorPages } from '@/components/ui/cursor-pager';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { CopyButton } from '@/components/ui/copy-button';
import { Alert, EmptyState, LoadingState, PageHeader } from '@/components/ui/feedback';
import { ApiError } from '@/lib/client/api';
import { useDeleteMedia, useMediaList, type MediaObject } from '@/lib/client/media-queries';

/** The account's media library: images for mail, newest first, each with its public URL. */
export function MediaView({ accountId }: { accountId: string }) {
  const { can } = useAccountScopes(accountId);
  const pages = useCursorPages();
  const cursor = pages.after;
  const media = useMediaList(
    accountId,
    new URLSearchParams({ limit: '24', ...(cursor ? { after: cursor } : {}) }).toString(),
  );
  const remove = useDeleteMedia(accountId);
  const [deleting, setDeleting] = useState<MediaObject | null>(null);
  const [isPicking, setIsPicking] = useState(false);
  const [copiedTag, setCopiedTag] = useState<{ tag: string; isCopied: boolean } | null>(null);
  const rows = media.data?.data ?? [];
  // A template's HTML is edited as text: an image goes in as a tag, with the alt text the picker asked for.
  const copyTag = async (image: PickedImage) => {
    setIsPicking(false);
    const tag = imageTag(image);
    try {
      await navigator.clipboard.writeText(tag);
      setCopiedTag({ tag, isCopied: true });
    } catch {
      setCopiedTag({ tag, isCopied: false });
    }
  };
  const upload = can('templates:write') ? <MediaUploadButton accountId={accountId} onUploaded={pages.reset} /> : null;

  return (
    <>
      <PageHeader
        title="Media"
        description="Images for your mail: PNG, JPEG, GIF or WebP, up to 5 MB each. Each has a public URL that mail can show; SVG is refused because it can carry script."
        actions={
          <Button variant="secondary" onClick={() => setIsPicking(true)}>
            Copy an image tag
          </Button>
        }
      />
      <div className="space-y-4">
        {upload}
        {copiedTag ? (
          <Alert
            tone={copiedTag.isCopied ? 'success' : 'warning'}
            title={
              copiedTag.isCopied
                ? 'Image tag copied: paste it into a template'
                : 'Could not copy: select the tag by hand'
            }
          >
            <code className="break-all" data-testid="copied-image-tag">
              {copiedTag.tag}
            </code>
          </Alert>
        ) : null}
        {media.isPending ? <LoadingState label="Loading images…" /> : null}
        {media.error ? (
          <Alert
            tone={media.error instanceof ApiError && media.error.status === 403 ? 'warning' : 'error'}
            title="Images could not be loaded"
          >
            {media.error.message}
          </Alert>
        ) : null}
        {media.data && rows.length === 0 ? (
          <EmptyState title={cursor ? 'No more images' : 'No images yet'}>
            {cursor ? null : 'Upload an image, then copy its URL into a template or pick it in the editor.'}
          </EmptyState>
        ) : null}
        {rows.length > 0 ? (
          <ul
            aria-label="Images"
            className="grid grid-cols-1 gap-4 min-[420px]:grid-cols-2 md:grid-cols-3 xl:grid-cols-4"
          >
            {rows.map((item) => (
              <MediaCard key={item.id} media={item}>
                <CopyButton value={item.url} what={`URL of ${item.name}`} />
                {can('templates:delete') ? (
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Delete ${item.name}`}
                    onClick={() => setDeleting(item)}
                  >
                    Delete
                  </Button>
                ) : null}
              </MediaCard>
            ))}
          </ul>
        ) : null}
        <CursorPager pages={pages} pagination={media.data?.pagination} />
      </div>
      <ImagePicker accountId={accountId} isOpen={isPicking} onClose={() => setIsPicking(false)} onInsert={copyTag} />
      <ConfirmDialog
        isOpen={deleting !== null}
        title="Delete 1 image"
        confirmLabel="Delete image"
        onConfirm={() => remove.mutateAsync(deleting!.id)}
        onClose={() => setDeleting(null)}
      >
        <p>
          Delete <strong className="break-all">{deleting?.name}</strong>? Its URL stops working at once, also in mail
          already sent that shows it. This cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** `<img src alt>` with both values escaped: alt text is whatever the person typed. */
export const imageTag = ({ src, alt }: PickedImage) =>
  `<img src="${escapeAttribute(src)}" alt="${escapeAttribute(alt)}">`;
