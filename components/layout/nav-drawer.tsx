'use client';

import Link from 'next/link';
import { useEffect, useRef, type ReactNode } from 'react';

/**
 * The navigation on narrow screens: a modal drawer on the native <dialog> (focus kept inside,
 * Escape closes, focus returns to the menu button). Following a link closes it.
 */
export function NavDrawer({
  id,
  accountId,
  isOpen,
  onClose,
  children,
}: {
  id: string;
  accountId: string;
  isOpen: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (isOpen && !dialog.open) dialog.showModal();
    if (!isOpen && dialog.open) dialog.close();
  }, [isOpen]);

  return (
    <dialog
      ref={ref}
      id={id}
      aria-label="Menu"
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      // A click on the backdrop lands on the <dialog> itself, outside its panel; a link navigates away.
      onClick={(event) => {
        if (event.target === event.currentTarget || (event.target as HTMLElement).closest('a')) onClose();
      }}
      className="m-0 h-dvh max-h-none w-72 max-w-[85vw] bg-white p-0 shadow-xl backdrop:bg-slate-900/45"
    >
      {isOpen ? (
        <div className="flex h-full flex-col overflow-y-auto">
          <div className="flex items-center justify-between px-5 py-3">
            <Link href={`/${accountId}`} className="text-base font-semibold tracking-tight text-brand-900">
              ✉ Mailstead
            </Link>
            <button
              type="button"
              onClick={onClose}
              className="rounded p-2 text-slate-600 hover:bg-slate-100"
              aria-label="Close menu"
            >
              ✕
            </button>
          </div>
          {children}
        </div>
      ) : null}
    </dialog>
  );
}
