'use client';

import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import type { MemberObject } from '@/lib/client/member-queries';
import {
  useEndMemberSessions,
  useEndMyOtherSessions,
  useEndMySession,
  type UserSessionObject,
} from '@/lib/client/profile-queries';

export function EndSessionDialog({
  session,
  onClose,
  onEnded,
}: {
  session: UserSessionObject | null;
  onClose: () => void;
  onEnded: (session: UserSessionObject) => void;
}) {
  const end = useEndMySession();
  return (
    <ConfirmDialog
      isOpen={session !== null}
      title="End session"
      confirmLabel="End session"
      onConfirm={() => end.mutateAsync(session!.id)}
      onDone={() => onEnded(session!)}
      onClose={onClose}
    >
      <p>
        Sign out <strong>{session?.device}</strong> ({session?.ip ?? 'unknown address'})? Its next page or request is
        refused, and whoever uses it has to sign in again.
      </p>
    </ConfirmDialog>
  );
}

export function EndOtherSessionsDialog({
  count,
  isOpen,
  onClose,
  onEnded,
}: {
  count: number;
  isOpen: boolean;
  onClose: () => void;
  onEnded: (ended: number) => void;
}) {
  const endOthers = useEndMyOtherSessions();
  return (
    <ConfirmDialog
      isOpen={isOpen}
      title="Sign out everywhere else"
      confirmLabel={`End ${count} other session${count === 1 ? '' : 's'}`}
      onConfirm={() => endOthers.mutateAsync()}
      onDone={(result) => onEnded(result.ended)}
      onClose={onClose}
    >
      <p>
        End your {count} other session{count === 1 ? '' : 's'}? This device stays signed in.
      </p>
    </ConfirmDialog>
  );
}

/** The members page: an administrator signs a member out of every device. */
export function EndMemberSessionsDialog({
  accountId,
  member,
  onClose,
  onEnded,
}: {
  accountId: string;
  member: MemberObject | null;
  onClose: () => void;
  onEnded: (message: string) => void;
}) {
  const end = useEndMemberSessions(accountId);
  return (
    <ConfirmDialog
      isOpen={member !== null}
      title="End member's sessions"
      confirmLabel="End all their sessions"
      onConfirm={() => end.mutateAsync(member!.user_id)}
      onDone={(result) => onEnded(`${member!.email} is signed out everywhere (${result.ended} session(s) ended).`)}
      onClose={onClose}
    >
      <p>
        Sign <strong className="wrap-anywhere">{member?.email}</strong> out of every device, in every account they
        belong to? They stay a member and can sign in again with their password.
      </p>
    </ConfirmDialog>
  );
}
