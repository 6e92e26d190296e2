'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { ApiError } from './api';
import { useUpdateCampaign } from './campaign-queries';
import { checkDraftBody, draftBodyOf, formFieldOf, type DraftValues } from './campaign-draft';

export type SaveState = { kind: 'saved' | 'saving' | 'pending' | 'invalid' } | { kind: 'error'; message: string };

const DEBOUNCE_MS = 700;

/**
 * Saves the draft as the user types: a PUT of the whole design once typing pauses, never two at once,
 * and only when the API's schema accepts it (its messages go to their fields). `flush` saves now, for
 * the steps that need the server to have the latest (test send, check, send).
 */
export function useCampaignAutosave(accountId: string, campaignId: string, form: UseFormReturn<DraftValues>) {
  const update = useUpdateCampaign(accountId, campaignId);
  const [state, setState] = useState<SaveState>({ kind: 'saved' });
  const lastSaved = useRef(JSON.stringify(draftBodyOf(form.getValues())));
  const running = useRef<Promise<boolean> | null>(null);

  const save = useCallback(async (): Promise<boolean> => {
    while (running.current) await running.current;
    const body = draftBodyOf(form.getValues());
    const serialized = JSON.stringify(body);
    if (serialized === lastSaved.current) {
      setState({ kind: 'saved' });
      return true;
    }
    const problems = checkDraftBody(body);
    form.clearErrors();
    if (problems.length > 0) {
      for (const problem of problems) form.setError(problem.field ?? 'root', { message: problem.message });
      setState({ kind: 'invalid' });
      return false;
    }
    setState({ kind: 'saving' });
    const request = update
      .mutateAsync(body)
      .then(() => {
        lastSaved.current = serialized;
        setState(
          JSON.stringify(draftBodyOf(form.getValues())) === serialized ? { kind: 'saved' } : { kind: 'pending' },
        );
        return true;
      })
      .catch((error: unknown) => {
        const field =
          error instanceof ApiError
            ? formFieldOf(error.field ?? /^([a-z_.]+)(?:\.\d+)?:/.exec(error.message)?.[1] ?? '')
            : null;
        if (field) form.setError(field, { message: (error as Error).message });
        setState({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
        return false;
      })
      .finally(() => {
        running.current = null;
      });
    running.current = request;
    return request;
  }, [form, update]);
  // The subscription below lives as long as the form; it calls whichever save is current.
  const saveRef = useRef(save);
  useEffect(() => {
    saveRef.current = save;
  }, [save]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const subscription = form.watch(() => {
      setState({ kind: 'pending' });
      clearTimeout(timer);
      timer = setTimeout(() => void saveRef.current(), DEBOUNCE_MS);
    });
    return () => {
      clearTimeout(timer);
      subscription.unsubscribe();
    };
  }, [form]);

  // Stable, so that a step may flush from an effect that runs once.
  const flush = useCallback(() => saveRef.current(), []);
  return { state, flush };
}
