'use client';

import { useId, useState } from 'react';
import { Alert } from '@/components/ui/feedback';
import { ProgressBar } from '@/components/ui/progress-bar';
import { formatBytes } from '@/lib/client/format';
import { useUploadMedia, type MediaObject } from '@/lib/client/media-queries';
import { MAX_MEDIA_BYTES } from '@/lib/core/media/schemas';

const ACCEPT = 'image/png,image/jpeg,image/gif,image/webp';

/**
 * Picks an image and uploads it, showing progress and, when the server refuses the file, its
 * reason (wrong type, SVG, too large, library full). A file over the limit is refused before upload.
 */
export function MediaUploadButton({
  accountId,
  onUploaded,
  label = 'Upload image',
}: {
  accountId: string;
  onUploaded?: (media: MediaObject) => void;
  label?: string;
}) {
  const inputId = useId();
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const upload = useUploadMedia(accountId, setProgress);

  const pick = (file: File | undefined) => {
    setError(null);
    if (!file) return;
    if (file.size > MAX_MEDIA_BYTES)
      return setError(`${file.name} is ${formatBytes(file.size)}: at most ${formatBytes(MAX_MEDIA_BYTES)} per image.`);
    setProgress(0);
    upload.mutate(file, {
      onSuccess: (media) => onUploaded?.(media),
      onError: (failure) => setError(`${file.name} was refused: ${failure.message}`),
      onSettled: () => setProgress(null),
    });
  };

  return (
    <div className="space-y-3">
      <label
        htmlFor={inputId}
        className={`inline-flex cursor-pointer items-center rounded-md bg-brand-600 px-3.5 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700 focus-within:ring-2 focus-within:ring-brand-600 focus-within:ring-offset-2 ${upload.isPending ? 'pointer-events-none opacity-60' : ''}`}
      >
        {upload.isPending ? 'Uploading…' : label}
        <input
          id={inputId}
          type="file"
          accept={ACCEPT}
          className="sr-only"
          disabled={upload.isPending}
          onChange={(event) => {
            pick(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
      </label>
      {progress !== null ? <ProgressBar value={progress} label="Upload progress" /> : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
    </div>
  );
}
