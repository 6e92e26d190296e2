'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { TwoFactorSection } from '@/components/profile/two-factor-section';
import { useTwoFactorStatus } from '@/lib/client/two-factor-queries';

/** Setup that an account requires: why, the section itself, and the way back once it is done. */
export function TwoFactorSetupView({ accountId }: { accountId: string | null }) {
  const router = useRouter();
  const status = useTwoFactorStatus();
  // The way on shows only while nothing is on screen to finish (the recovery codes first).
  const [isIdle, setIsIdle] = useState(true);
  // Named only when that account does require it: the page never claims a reason that is not true.
  const accountName = status.data?.required_by.find((candidate) => candidate.id === accountId)?.name;
  const continueTo = accountId ? `/${accountId}` : '/';
  return (
    <div className="space-y-5">
      <div>
        <h1 className="text-lg font-semibold">Set up two-factor sign-in</h1>
        <p className="mt-1 text-sm text-slate-600">
          {accountName
            ? `The account “${accountName}” requires two-factor sign-in of its members. Set it up to continue; until then its pages and API refuse your session.`
            : status.data?.required_by.length
              ? 'An account you belong to requires two-factor sign-in of its members. Set it up to continue.'
              : 'A code from an app on your phone, asked for after your password.'}
        </p>
      </div>
      <TwoFactorSection
        onStageChange={setIsIdle}
        onFinished={() => {
          router.replace(continueTo);
          router.refresh();
        }}
      />
      {status.data?.is_enabled && isIdle ? (
        <Link href={continueTo} className="block text-sm font-medium text-brand-700 underline">
          Continue{accountName ? ` to ${accountName}` : ''}
        </Link>
      ) : null}
    </div>
  );
}
