'use client';

import { useState } from 'react';
import { EndOtherSessionsDialog, EndSessionDialog } from '@/components/dialogs/session-dialogs';
import { UserSessionTable } from '@/components/tables/user-session-table';
import { Button } from '@/components/ui/button';
import { Alert } from '@/components/ui/feedback';
import { useMySessions, type UserSessionObject } from '@/lib/client/profile-queries';

export function SessionsSection() {
  const sessions = useMySessions();
  const [ending, setEnding] = useState<UserSessionObject | null>(null);
  const [isEndingOthers, setIsEndingOthers] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const others = sessions.data?.data.filter((session) => !session.is_current).length ?? 0;
  return (
    <>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <p className="max-w-xl text-sm text-slate-600">
          Every browser signed in as you. Ending a session signs that browser out at its next page or request.
        </p>
        {others > 0 ? (
          <Button variant="secondary" size="sm" onClick={() => setIsEndingOthers(true)}>
            Sign out everywhere else
          </Button>
        ) : null}
      </div>
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      <UserSessionTable
        sessions={sessions.data?.data}
        onEnd={setEnding}
        isLoading={sessions.isPending}
        loadingLabel="Loading your sessions…"
        error={sessions.error ? `Your sessions could not be loaded: ${sessions.error.message}` : undefined}
        empty="No sessions."
      />
      {sessions.data && others === 0 ? (
        <p className="text-sm text-slate-600">You are signed in on this device only.</p>
      ) : null}
      <EndSessionDialog
        session={ending}
        onClose={() => setEnding(null)}
        onEnded={(session) => setNotice(`${session.device} is signed out.`)}
      />
      <EndOtherSessionsDialog
        count={others}
        isOpen={isEndingOthers}
        onClose={() => setIsEndingOthers(false)}
        onEnded={(ended) => setNotice(`${ended} other session${ended === 1 ? '' : 's'} signed out.`)}
      />
    </>
  );
}
