'use client';

import { useEffect, useRef } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';

const DEBOUNCE_MS = 700;

/**
 * Calls `save` once typing pauses, while the form has unsaved changes and `canSave` says so (not
 * while a conflict waits for the user, or the server asked to wait). A save already on its way is
 * left to finish; the change typed meanwhile is saved after it.
 */
export function useAutosaveOnPause<T extends FieldValues>(
  form: UseFormReturn<T>,
  save: () => Promise<void>,
  canSave: boolean,
) {
  const latest = useRef({ save, canSave });
  useEffect(() => {
    latest.current = { save, canSave };
  });

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (!latest.current.canSave || !form.formState.isDirty) return;
        if (form.formState.isSubmitting) schedule();
        else void latest.current.save();
      }, DEBOUNCE_MS);
    };
    const subscription = form.watch(schedule);
    return () => {
      clearTimeout(timer);
      subscription.unsubscribe();
    };
  }, [form]);

  // Allowed again (the wait is over): what is unsaved goes now.
  useEffect(() => {
    if (canSave && form.formState.isDirty && !form.formState.isSubmitting) void latest.current.save();
  }, [canSave, form]);
}
