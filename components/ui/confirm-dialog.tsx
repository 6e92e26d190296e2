'use client';

import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Alert } from '@/components/ui/feedback';
import { ApiError, fieldErrorMessage } from '@/lib/client/api';

/**
 * A question before an action: Cancel, and a confirm button that runs `onConfirm`. A rejection
 * keeps the dialog open with the error above the explanation; success calls `onDone`, then closes.
 */
export function ConfirmDialog<Result>({
  isOpen,
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  variant = 'danger',
  isConfirmDisabled = false,
  onConfirm,
  onDone,
  onClose,
}: {
  isOpen: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: ReactNode;
  cancelLabel?: string;
  variant?: 'primary' | 'danger';
  isConfirmDisabled?: boolean;
  onConfirm: () => Promise<Result>;
  onDone?: (result: Result) => void;
  onClose: () => void;
}) {
  const [isBusy, setIsBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  const confirm = async () => {
    setError(null);
    setIsBusy(true);
    let result: Result;
    try {
      result = await onConfirm();
    } catch (failure) {
      // A field's error (`password: ...`) is shown beside the dialog's only fields: the message reads alone.
      setError(fieldErrorMessage(failure, failure instanceof ApiError ? failure.field : null));
      return;
    } finally {
      setIsBusy(false);
    }
    onDone?.(result);
    close();
  };
  return (
    <Dialog
      isOpen={isOpen}
      onClose={close}
      title={title}
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            {cancelLabel}
          </Button>
          <Button variant={variant} disabled={isConfirmDisabled} isBusy={isBusy} onClick={confirm}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm">
        {error ? <Alert tone="error">{error}</Alert> : null}
        {children}
      </div>
    </Dialog>
  );
}
