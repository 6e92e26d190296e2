'use client';

import { useState } from 'react';
import { Button } from './button';

/**
 * Copies a value. `what` names it for people who cannot see the table around the button
 * ("host of DKIM record"): the button is announced as "Copy host of DKIM record".
 */
export function CopyButton({ value, what }: { value: string; what: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        className="shrink-0"
        aria-label={`Copy ${what}`}
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(value);
            setState('copied');
          } catch {
            // Clipboard access can be denied; the value stays visible to copy by hand.
            setState('failed');
          }
          setTimeout(() => setState('idle'), 2000);
        }}
      >
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}
      </Button>
      <span className="sr-only" role="status">
        {state === 'copied' ? `Copied ${what}` : state === 'failed' ? `Could not copy ${what}; select it by hand` : ''}
      </span>
    </>
  );
}
