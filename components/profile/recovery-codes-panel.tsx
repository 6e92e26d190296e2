'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { Checkbox } from '@/components/ui/field';
import { Alert } from '@/components/ui/feedback';

/** The ten recovery codes, shown this once: copy or download them, then say they are saved. */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [isSaved, setIsSaved] = useState(false);
  const text = `Mailstead recovery codes (each works once)\n\n${codes.join('\n')}\n`;
  return (
    <div className="space-y-4">
      <Alert tone="warning" title="Save your recovery codes now">
        If you lose your phone, each of these codes signs you in once instead of a code from the app. They are not shown
        again.
      </Alert>
      <ol
        className="grid grid-cols-1 gap-x-6 gap-y-1 rounded-md bg-slate-50 p-4 font-mono text-sm sm:grid-cols-2"
        data-testid="recovery-codes"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <CopyButton value={codes.join('\n')} what="recovery codes" />
        <Button
          variant="secondary"
          size="sm"
          onClick={() => {
            const link = document.createElement('a');
            link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
            link.download = 'mailstead-recovery-codes.txt';
            link.click();
            URL.revokeObjectURL(link.href);
          }}
        >
          Download
        </Button>
      </div>
      <Checkbox
        label="I have saved these recovery codes"
        checked={isSaved}
        onChange={(event) => setIsSaved(event.currentTarget.checked)}
      />
      <Button disabled={!isSaved} onClick={onDone}>
        Done
      </Button>
    </div>
  );
}
