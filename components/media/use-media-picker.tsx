'use client';

import { useCallback, useRef, useState } from 'react';
import type { PickMedia } from '@/components/editor/add-image-dialog';
import { ImagePicker, type PickedImage } from './image-picker';

/**
 * The media library as the editor's `pickMedia`: a promise that opens the ImagePicker and resolves
 * with the chosen image (alt text asked there), or null when the person closes it. Render `picker`.
 */
export function useMediaPicker(accountId: string): { pickMedia: PickMedia; picker: React.ReactNode } {
  const [isOpen, setIsOpen] = useState(false);
  const settle = useRef<((image: PickedImage | null) => void) | null>(null);
  const finish = useCallback((image: PickedImage | null) => {
    settle.current?.(image);
    settle.current = null;
    setIsOpen(false);
  }, []);
  const pickMedia = useCallback<PickMedia>(
    () =>
      new Promise((resolve) => {
        settle.current?.(null);
        settle.current = resolve;
        setIsOpen(true);
      }),
    [],
  );
  const picker = (
    <ImagePicker
      accountId={accountId}
      isOpen={isOpen}
      onClose={() => finish(null)}
      onInsert={(image) => finish(image)}
    />
  );
  return { pickMedia, picker };
}
