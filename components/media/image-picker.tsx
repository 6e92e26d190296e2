'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { CursorPager, useCursorPages } from '@/components/ui/cursor-pager';
import { Dialog } from '@/components/ui/dialog';
import { Alert, LoadingState } from '@/components/ui/feedback';
import { Checkbox, Field, TextInput } from '@/components/ui/field';
import { useMediaList, type MediaObject } from '@/lib/client/media-queries';
import { describeMedia } from './media-card';
import { MediaUploadButton } from './media-upload-button';

/** What the picker hands back: the image's public URL and the alt text ("" only when marked decorative). */
export type PickedImage = { src: string; alt: string };

export type ImagePickerProps = {
  /** The account whose media library is shown and uploaded to. */
  accountId: string;
  isOpen: boolean;
  /** Cancel, Escape or ✕: nothing is inserted. */
  onClose: () => void;
  /** The chosen image, after alt text was given; the dialog does not close itself, the caller does. */
  onInsert: (image: PickedImage) => void;
};

/**
 * A dialog to put an image into content (the block editor uses it): pick one from the account's
 * media library or upload one, then say what it shows. Alt text is asked for before inserting;
 * an empty one only when the person marks the image decorative.
 */
export function ImagePicker({ accountId, isOpen, onClose, onInsert }: ImagePickerProps) {
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title="Insert an image">
      {/* The dialog renders its body only while open: each opening starts with nothing chosen. */}
      <ImagePickerBody accountId={accountId} onClose={onClose} onInsert={onInsert} />
    </Dialog>
  );
}

function ImagePickerBody({ accountId, onClose, onInsert }: Omit<ImagePickerProps, 'isOpen'>) {
  const pages = useCursorPages();
  const cursor = pages.after;
  const media = useMediaList(
    accountId,
    new URLSearchParams({ limit: '12', ...(cursor ? { after: cursor } : {}) }).toString(),
  );
  const [chosen, setChosen] = useState<MediaObject | null>(null);
  const [alt, setAlt] = useState('');
  const [isDecorative, setIsDecorative] = useState(false);
  const [isAltMissing, setIsAltMissing] = useState(false);
  const rows = media.data?.data ?? [];

  const insert = () => {
    if (!chosen) return;
    if (!isDecorative && !alt.trim()) return setIsAltMissing(true);
    onInsert({ src: chosen.url, alt: isDecorative ? '' : alt.trim() });
  };

  return (
    <div className="space-y-4">
      <MediaUploadButton accountId={accountId} label="Upload a new image" onUploaded={setChosen} />
      {media.isPending ? <LoadingState label="Loading images…" /> : null}
      {media.error ? <Alert tone="error">{media.error.message}</Alert> : null}
      {media.data && rows.length === 0 && !cursor ? (
        <p className="text-sm text-slate-600">The media library is empty: upload an image.</p>
      ) : null}
      {rows.length > 0 ? (
        <ul aria-label="Media library" className="grid grid-cols-2 gap-2 sm:grid-cols-3">
          {rows.map((item) => (
            <li key={item.id}>
              <button
                type="button"
                aria-pressed={chosen?.id === item.id}
                aria-label={`${item.name}, ${describeMedia(item)}`}
                onClick={() => setChosen(item)}
                className="flex h-24 w-full items-center justify-center rounded-md bg-slate-100 ring-1 ring-slate-200 hover:ring-brand-600 aria-pressed:ring-2 aria-pressed:ring-brand-600"
              >
                <img src={item.url} alt="" loading="lazy" className="max-h-full max-w-full object-contain" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <CursorPager pages={pages} pagination={media.data?.pagination} size="sm" />
      {chosen ? (
        <div className="space-y-3 border-t border-slate-200 pt-4">
          <p className="truncate text-sm text-slate-700" title={chosen.name}>
            Chosen: <strong>{chosen.name}</strong> ({describeMedia(chosen)})
          </p>
          <Field
            label="Alt text"
            isRequired={!isDecorative}
            hint="What the image shows, for people who cannot see it (and mail clients that block images)."
            error={isAltMissing && !isDecorative && !alt.trim() ? 'Describe the image, or mark it decorative.' : null}
          >
            <TextInput
              value={alt}
              disabled={isDecorative}
              maxLength={500}
              onChange={(event) => setAlt(event.target.value)}
            />
          </Field>
          <Checkbox
            label="Decorative image"
            description="It adds nothing a reader needs (a divider, a flourish): screen readers skip it."
            checked={isDecorative}
            onChange={(event) => setIsDecorative(event.target.checked)}
          />
        </div>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2 border-t border-slate-200 pt-3">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button disabled={!chosen} onClick={insert}>
          Insert image
        </Button>
      </div>
    </div>
  );
}
