'use client';

import { signOut } from 'next-auth/react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';

export function UserMenu({ email }: { email: string }) {
  const [isBusy, setIsBusy] = useState(false);
  return (
    <div className="flex items-center gap-3">
      {/* On a phone the address is in the menu drawer; the header keeps only the button. */}
      <span
        className="hidden max-w-[16rem] truncate text-sm text-slate-700 sm:inline"
        data-testid="signed-in-as"
        title={email}
      >
        {email}
      </span>
      <Button
        variant="secondary"
        size="sm"
        isBusy={isBusy}
        onClick={async () => {
          setIsBusy(true);
          await signOut({ callbackUrl: '/sign-in' });
        }}
      >
        Sign out
      </Button>
    </div>
  );
}
