'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Alert, Badge, LoadingState } from '@/components/ui/feedback';
import { fieldErrorMessage } from '@/lib/client/api';
import {
  useEnableTwoFactor,
  useStartTwoFactorSetup,
  useTwoFactorStatus,
  type TwoFactorSetup,
} from '@/lib/client/two-factor-queries';
import { RecoveryCodesPanel } from './recovery-codes-panel';
import { DisableTwoFactorDialog, RegenerateRecoveryCodesDialog } from './two-factor-dialogs';
import { TwoFactorSetupPanel } from './two-factor-setup-panel';

type Stage = { kind: 'idle' } | { kind: 'setup'; setup: TwoFactorSetup } | { kind: 'codes'; codes: string[] };

/**
 * The person's two-factor sign-in, a section of their profile: set up (QR code, then a code, then the
 * recovery codes once), new recovery codes, turn off. `onFinished` runs once the codes are saved.
 */
export function TwoFactorSection({
  onFinished,
  onStageChange,
}: {
  onFinished?: () => void;
  /** Whether the section is in the middle of something (setup, codes on screen) or idle. */
  onStageChange?: (isIdle: boolean) => void;
}) {
  const status = useTwoFactorStatus();
  const start = useStartTwoFactorSetup();
  const enable = useEnableTwoFactor();
  const [stage, setStageState] = useState<Stage>({ kind: 'idle' });
  const setStage = (next: Stage) => {
    setStageState(next);
    onStageChange?.(next.kind === 'idle');
  };
  const [dialog, setDialog] = useState<'disable' | 'regenerate' | null>(null);
  const info = status.data;
  return (
    <section
      aria-labelledby="two-factor-heading"
      className="space-y-4 rounded-lg bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="two-factor-heading" className="text-base font-semibold">
          Two-factor sign-in
        </h2>
        {info ? <Badge tone={info.is_enabled ? 'green' : 'slate'}>{info.is_enabled ? 'On' : 'Off'}</Badge> : null}
      </div>
      <p className="text-sm text-slate-600">
        After your password, sign-in asks for a code from an authenticator app on your phone, so a stolen password alone
        cannot get in.
      </p>
      {status.isPending ? <LoadingState /> : null}
      {status.error ? <Alert tone="error">{status.error.message}</Alert> : null}
      {start.error ? <Alert tone="error">{start.error.message}</Alert> : null}
      {info && !info.is_enabled && info.required_by.length > 0 ? (
        <Alert tone="warning" title="Required by your team">
          {info.required_by.map((account) => account.name).join(', ')} require{info.required_by.length === 1 ? 's' : ''}{' '}
          two-factor sign-in of every member. Set it up to keep using{' '}
          {info.required_by.length === 1 ? 'that account' : 'those accounts'}.
        </Alert>
      ) : null}
      {stage.kind === 'codes' ? (
        <RecoveryCodesPanel
          codes={stage.codes}
          onDone={() => {
            setStage({ kind: 'idle' });
            onFinished?.();
          }}
        />
      ) : stage.kind === 'setup' ? (
        <TwoFactorSetupPanel
          setup={stage.setup}
          error={enable.error ? fieldErrorMessage(enable.error, 'code') : null}
          isBusy={enable.isPending}
          onConfirm={async (code) => {
            const result = await enable.mutateAsync({ code }).catch(() => null);
            if (result) setStage({ kind: 'codes', codes: result.recovery_codes });
          }}
          onCancel={() => {
            enable.reset();
            setStage({ kind: 'idle' });
          }}
        />
      ) : info?.is_enabled ? (
        <div className="space-y-3 text-sm">
          <p>
            On since {new Date(info.enabled_at ?? '').toLocaleDateString()}.{' '}
            <span data-testid="recovery-codes-remaining">{info.recovery_codes_remaining}</span> of 10 recovery codes
            left.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => setDialog('regenerate')}>
              New recovery codes
            </Button>
            <Button variant="danger" onClick={() => setDialog('disable')}>
              Turn off
            </Button>
          </div>
        </div>
      ) : info ? (
        <Button
          isBusy={start.isPending}
          onClick={async () => {
            const setup = await start.mutateAsync({}).catch(() => null);
            if (setup) setStage({ kind: 'setup', setup });
          }}
        >
          Set up two-factor sign-in
        </Button>
      ) : null}
      <DisableTwoFactorDialog isOpen={dialog === 'disable'} onClose={() => setDialog(null)} />
      <RegenerateRecoveryCodesDialog
        isOpen={dialog === 'regenerate'}
        onClose={() => setDialog(null)}
        onCodes={(codes) => setStage({ kind: 'codes', codes })}
      />
    </section>
  );
}
