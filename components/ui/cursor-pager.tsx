'use client';

import { useState } from 'react';
import { Button } from './button';

/** The cursors of the pages walked so far in a keyset-paginated list; `after` is the current page's. */
export function useCursorPages() {
  const [cursors, setCursors] = useState<string[]>([]);
  return {
    after: cursors.at(-1),
    hasPrevious: cursors.length > 0,
    previous: () => setCursors((walked) => walked.slice(0, -1)),
    next: (cursor: string) => setCursors((walked) => [...walked, cursor]),
    reset: () => setCursors([]),
  };
}

export type CursorPages = ReturnType<typeof useCursorPages>;

/** Previous and Next under a list, shown only when there is somewhere to go. */
export function CursorPager({
  pages,
  pagination,
  size = 'md',
}: {
  pages: CursorPages;
  pagination: { has_more: boolean; next_cursor?: string } | undefined;
  size?: 'sm' | 'md';
}) {
  if (!pages.hasPrevious && !pagination?.has_more) return null;
  return (
    <div className="flex justify-end gap-2">
      <Button variant="secondary" size={size} disabled={!pages.hasPrevious} onClick={pages.previous}>
        Previous
      </Button>
      <Button
        variant="secondary"
        size={size}
        disabled={!pagination?.has_more}
        onClick={() => pagination?.next_cursor && pages.next(pagination.next_cursor)}
      >
        Next
      </Button>
    </div>
  );
}
