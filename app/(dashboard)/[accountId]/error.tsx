'use client';

import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/feedback';

export default function AccountError({ reset }: { error: Error; reset: () => void }) {
  return (
    <div className="space-y-4">
      <Alert tone="error" title="This page could not be shown">
        Something went wrong on our side. Try again; if it keeps failing, the server log has the details.
      </Alert>
      <Button variant="secondary" onClick={reset}>
        Try again
      </Button>
    </div>
  );
}
