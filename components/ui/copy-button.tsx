'use client';

import { useState } from 'react';
import { Button } from './button';

export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const [isCopied, setIsCopied] = useState(false);
  return (
    <Button
      variant="secondary"
      size="sm"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
        } catch {
          // Clipboard access can be denied; the value stays visible to copy by hand.
        }
        setIsCopied(true);
        setTimeout(() => setIsCopied(false), 2000);
      }}
    >
      {isCopied ? 'Copied' : label}
    </Button>
  );
}
