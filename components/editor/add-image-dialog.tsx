'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, TextInput } from '@/components/ui/field';

export type PickMedia = () => Promise<{ src: string; alt?: string } | null>;

/**
 * An image is added with its address and its alt text asked for together, so that the description
 * is written while the image is in mind. The media library, when the page offers one, fills the address.
 */
export function AddImageDialog({
  isOpen,
  pickMedia,
  onAdd,
  onClose,
}: {
  isOpen: boolean;
  pickMedia?: PickMedia;
  onAdd: (image: { src: string; alt: string }) => void;
  onClose: () => void;
}) {
  const [src, setSrc] = useState('');
  const [alt, setAlt] = useState('');
  const close = () => {
    setSrc('');
    setAlt('');
    onClose();
  };
  return (
    <Dialog
      isOpen={isOpen}
      onClose={close}
      title="Add an image"
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button
            disabled={!src.trim()}
            onClick={() => {
              onAdd({ src: src.trim(), alt: alt.trim() });
              close();
            }}
          >
            Add image
          </Button>
        </>
      }
    >
      <div className="space-y-3">
        <Field label="Image URL" htmlFor="add-image-src" hint="An https:// address, or one from the media library.">
          <TextInput
            id="add-image-src"
            type="url"
            autoComplete="off"
            value={src}
            onChange={(event) => setSrc(event.target.value)}
          />
        </Field>
        {pickMedia ? (
          <Button
            size="sm"
            variant="secondary"
            onClick={async () => {
              const picked = await pickMedia();
              if (picked) {
                setSrc(picked.src);
                if (!alt && picked.alt) setAlt(picked.alt);
              }
            }}
          >
            Choose from media library
          </Button>
        ) : null}
        <Field
          label="Alt text"
          htmlFor="add-image-alt"
          isRequired
          hint="What the image shows, for readers who do not see it (many mail clients block images)."
        >
          <TextInput
            id="add-image-alt"
            autoComplete="off"
            value={alt}
            onChange={(event) => setAlt(event.target.value)}
          />
        </Field>
        {src.trim() && !alt.trim() ? (
          <p className="text-xs text-amber-800" data-testid="alt-warning">
            Without alt text the image is added, flagged until it has one.
          </p>
        ) : null}
      </div>
    </Dialog>
  );
}
