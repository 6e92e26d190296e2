'use client';

import { createContext, useContext, useEffect, useState } from 'react';
import type { BlocksDocument } from '@/lib/client/blocks-editing';

/** How long a removal can be undone: long enough to notice, short enough not to linger. */
const UNDO_MS = 8_000;

/** A removal that can be taken back: what is gone, and how to put it back into the document as it is then. */
export type Removal = { label: string; restore: (document: BlocksDocument) => BlocksDocument };

/** Offered by the block editor to whatever removes a block inside it (a column's children too). */
export const OfferUndoContext = createContext<(removal: Removal) => void>(() => {});
export const useOfferUndo = () => useContext(OfferUndoContext);

/** The last removal, offered back for a few seconds; a newer removal replaces it. */
export function useUndoableRemoval() {
  const [removal, setRemoval] = useState<(Removal & { at: number }) | null>(null);
  useEffect(() => {
    if (!removal) return;
    const timer = setTimeout(() => setRemoval(null), UNDO_MS);
    return () => clearTimeout(timer);
  }, [removal]);
  return {
    removal,
    offer: (next: Removal) => setRemoval({ ...next, at: Date.now() }),
    dismiss: () => setRemoval(null),
  };
}

/** "Text block removed. Undo", announced politely, at the bottom of the screen where a toast is expected. */
export function UndoToast({ label, onUndo }: { label: string; onUndo: () => void }) {
  return (
    <div
      role="status"
      data-testid="undo-toast"
      className="fixed inset-x-4 bottom-4 z-50 mx-auto flex max-w-md items-center justify-between gap-3 rounded-md bg-slate-900 px-4 py-3 text-sm text-white shadow-lg"
    >
      <span className="min-w-0 wrap-anywhere">{label}</span>
      <button type="button" className="shrink-0 rounded px-2 py-1 font-semibold underline" onClick={onUndo}>
        Undo
      </button>
    </div>
  );
}
