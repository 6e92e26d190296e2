'use client';

import { useId, useState, type ReactNode } from 'react';

/**
 * Filters that fold away on a phone: below the `sm` width a "Filters" button (with how many are
 * set) opens them, so the results come first; wider screens always show them.
 */
export function FilterDisclosure({
  activeCount,
  isForcedOpen = false,
  children,
}: {
  activeCount: number;
  isForcedOpen?: boolean;
  children: ReactNode;
}) {
  const id = useId();
  const [isToggledOpen, setIsOpen] = useState(false);
  const isOpen = isToggledOpen || isForcedOpen;
  return (
    <div>
      <button
        type="button"
        aria-expanded={isOpen}
        aria-controls={id}
        onClick={() => setIsOpen(!isToggledOpen)}
        className="flex w-full items-center justify-between rounded-lg bg-white px-4 py-2.5 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-200 sm:hidden"
        data-filter-toggle
      >
        <span>
          Filters
          {activeCount > 0 ? (
            <span className="ml-2 rounded-full bg-brand-600 px-2 py-0.5 text-xs text-white">{activeCount} active</span>
          ) : null}
        </span>
        <span aria-hidden>{isOpen ? '▴' : '▾'}</span>
      </button>
      <div id={id} className={isOpen ? 'mt-2 sm:mt-0' : 'hidden sm:block'}>
        {children}
      </div>
    </div>
  );
}
