'use client';

import { type ReactNode, useEffect, useId, useRef } from 'react';

const FIELDS = 'input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled])';

/**
 * Where a dialog's focus starts: an element marked data-autofocus, else the first field, else the
 * footer's main action (its safe choice when that action is destructive), never the "✕".
 */
function initialFocusOf(dialog: HTMLDialogElement): HTMLElement | null {
  const marked = dialog.querySelector<HTMLElement>('[data-autofocus]');
  if (marked) return marked;
  const field = dialog.querySelector<HTMLElement>(`[data-dialog-body] :is(${FIELDS})`);
  if (field) return field;
  const actions = [...dialog.querySelectorAll<HTMLButtonElement>('[data-dialog-footer] button:not([disabled])')];
  const main = actions.at(-1);
  if (main?.dataset.variant === 'danger') return actions.at(-2) ?? main;
  return main ?? dialog.querySelector<HTMLElement>('[data-dialog-body] :is(button, a[href]):not([disabled])');
}

/**
 * A modal on the native <dialog>: the browser traps focus, closes on Escape and restores focus,
 * so keyboard users get the right behaviour without a library.
 */
export function Dialog({
  isOpen,
  onClose,
  title,
  children,
  footer,
}: {
  isOpen: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  // Its own id: a dialog opened over another (the media picker over "Add an image") keeps its own name.
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (isOpen && !dialog.open) {
      dialog.showModal();
      const start = initialFocusOf(dialog);
      if (start) {
        start.focus();
        // Chromium shows no ring for a focus moved by script after a click; this one must be seen.
        start.dataset.initialFocus = '';
        start.addEventListener('blur', () => delete start.dataset.initialFocus, { once: true });
      }
    }
    if (!isOpen && dialog.open) dialog.close();
  }, [isOpen]);
  return (
    <dialog
      ref={ref}
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      aria-labelledby={titleId}
      className="m-auto w-[calc(100%-2rem)] max-w-xl rounded-lg bg-white p-0 shadow-xl"
    >
      {isOpen ? (
        <div className="flex max-h-[85vh] flex-col">
          <div className="flex items-center justify-between gap-3 border-b border-slate-200 px-5 py-3">
            <h2 id={titleId} className="min-w-0 text-base font-semibold wrap-break-word">
              {title}
            </h2>
            <button
              type="button"
              onClick={onClose}
              className="rounded p-1 text-slate-600 hover:bg-slate-100"
              aria-label="Close"
            >
              ✕
            </button>
          </div>
          <div data-dialog-body className="overflow-y-auto px-5 py-4">
            {children}
          </div>
          {footer ? (
            <div data-dialog-footer className="flex flex-wrap justify-end gap-2 border-t border-slate-200 px-5 py-3">
              {footer}
            </div>
          ) : null}
        </div>
      ) : null}
    </dialog>
  );
}
