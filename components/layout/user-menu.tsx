'use client';

import Link from 'next/link';
import { signOut } from 'next-auth/react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';

/** Who is signed in (a link to their profile) and Sign out. */
export function UserMenu({ accountId, email }: { accountId: string; email: string }) {
  const [isBusy, setIsBusy] = useState(false);
  return (
    <div className="flex items-center gap-3">
      {/* On a phone the address is in the menu drawer; the header keeps only the button. */}
      <Link
        href={`/${accountId}/profile`}
        className="hidden max-w-[16rem] truncate text-sm text-slate-700 hover:text-brand-700 hover:underline sm:inline"
        data-testid="signed-in-as"
        title={`${email}: your profile`}
      >
        {email}
      </Link>
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
