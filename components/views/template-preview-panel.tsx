'use client';

import { useEffect, useMemo, useState } from 'react';
import type { DraftParts } from '@/components/forms/template-editor-form';
import { Alert } from '@/components/ui/feedback';
import { TemplatePreviewFrame } from '@/components/ui/template-preview-frame';
import { ApiError } from '@/lib/client/api';
import { contentBodyOf, hasContent, sourceErrorOf, type SourceError } from '@/lib/client/content-format';
import { preheaderOf } from '@/lib/client/preheader';
import { useTemplatePreview } from '@/lib/client/template-queries';
import { useDebouncedValue } from '@/lib/client/use-debounced-value';
import type { PreviewTemplateInput } from '@/lib/core/templates/schemas';

const TABS = [
  { name: 'html', label: 'HTML' },
  { name: 'text', label: 'Text' },
] as const;

type Tab = (typeof TABS)[number]['name'];

// A desktop client's usual message width, and a phone's.
const DEVICES = [
  { name: 'desktop', label: 'Desktop', frameClass: 'w-full min-w-[600px]' },
  { name: 'phone', label: 'Phone', frameClass: 'w-[390px] max-w-none mx-auto' },
] as const;
type Device = (typeof DEVICES)[number]['name'];

// Long enough that typing does not send a render per keystroke, short enough to feel live.
const DEBOUNCE_MS = 400;

/**
 * Parts rendered with the sample values by the server's render workers (the same engine and limits
 * as sending), a moment after they stop changing. A template error says which part and where.
 */
export function TemplatePreviewPanel({
  accountId,
  parts,
  substitutions,
  label = 'Rendered preview',
  onSourceError,
}: {
  accountId: string;
  parts: DraftParts;
  substitutions: Record<string, unknown> | null;
  label?: string;
  onSourceError?: (error: SourceError | null) => void;
}) {
  const input = useMemo(
    () =>
      substitutions === null
        ? null
        : ({
            subject: parts.subject,
            preheader: parts.preheader,
            ...(parts.text_content === undefined ? {} : { text_content: parts.text_content }),
            ...contentBodyOf(parts.content),
            substitutions,
          } satisfies PreviewTemplateInput),
    [parts, substitutions],
  );
  const settled = useDebouncedValue(input, DEBOUNCE_MS);
  const preview = useTemplatePreview(accountId, settled);
  const [chosen, setChosen] = useState<Tab | null>(null);
  const [device, setDevice] = useState<Device>('desktop');
  const hasHtml = hasContent(parts.content);
  const hasBody = hasHtml || Boolean(parts.text_content);
  // Text-only drafts open on their text: an empty frame would say nothing.
  const tab = chosen ?? (!hasHtml && parts.text_content ? 'text' : 'html');
  const data = preview.data;
  const isRendering = preview.isFetching || input !== settled;
  const error = preview.error;
  const previewText = useMemo(() => preheaderOf(data?.html_content ?? null), [data]);
  useEffect(() => {
    if (!onSourceError || isRendering) return;
    onSourceError(error ? sourceErrorOf(error.message, error instanceof ApiError ? error.field : null) : null);
  }, [error, isRendering, onSourceError]);

  return (
    <section className="rounded-lg bg-white shadow-sm ring-1 ring-slate-200" aria-label={label}>
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-2 pt-2 sm:px-3">
        <div role="tablist" aria-label={`${label} parts`} className="flex gap-1">
          {TABS.map(({ name, label: tabLabel }) => (
            <button
              key={name}
              role="tab"
              type="button"
              aria-selected={tab === name}
              onClick={() => setChosen(name)}
              className={`shrink-0 rounded-t-md px-3 py-2 text-sm ${tab === name ? 'bg-slate-100 font-medium' : 'text-slate-700 hover:bg-slate-50'}`}
            >
              {tabLabel}
            </button>
          ))}
        </div>
        <div role="radiogroup" aria-label="Preview width" className="flex gap-1 pb-2">
          {DEVICES.map(({ name, label: deviceLabel }) => (
            <button
              key={name}
              type="button"
              role="radio"
              aria-checked={device === name}
              onClick={() => setDevice(name)}
              className={`rounded-md px-2.5 py-1 text-xs ${device === name ? 'bg-slate-800 font-medium text-white' : 'text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50'}`}
            >
              {deviceLabel}
            </button>
          ))}
        </div>
        <span className="pb-2 text-xs text-slate-600" role="status" data-testid="preview-status">
          {isRendering ? 'Rendering…' : preview.error ? 'Not rendered' : data ? 'Up to date' : ''}
        </span>
      </div>
      <div className="space-y-3 p-3 sm:p-4" role="tabpanel">
        {substitutions === null ? <Alert tone="warning">Fix the sample values to see a preview.</Alert> : null}
        {preview.error && !isRendering ? (
          <div data-testid="preview-error">
            <Alert tone="error" title="This draft does not render">
              {preview.error.message}
            </Alert>
          </div>
        ) : null}
        {!hasBody ? (
          <p className="text-sm text-slate-600">Nothing to preview yet: write the body or a text part.</p>
        ) : null}
        {data && hasBody && !preview.error ? (
          <>
            <p className="text-sm wrap-anywhere">
              <span className="font-semibold">Subject: </span>
              <span data-testid="preview-subject">
                {data.subject ?? <span className="text-slate-600">(none yet)</span>}
              </span>
              {previewText ? (
                <span className="text-slate-600" data-testid="preview-preheader">
                  {' '}
                  — {previewText}
                </span>
              ) : null}
            </p>
            {tab === 'html' ? (
              data.html_content !== null ? (
                <div className="overflow-x-auto" data-testid="preview-device" data-device={device}>
                  <TemplatePreviewFrame
                    html={data.html_content}
                    widthClass={DEVICES.find((candidate) => candidate.name === device)!.frameClass}
                  />
                </div>
              ) : (
                <p className="text-sm text-slate-600">No HTML body: mail clients show the text.</p>
              )
            ) : (
              <pre
                className="max-h-[28rem] overflow-auto whitespace-pre-wrap rounded border border-slate-200 p-3 text-sm wrap-anywhere"
                data-testid="preview-text"
              >
                {data.text_content ?? 'No text body: mail clients that show no HTML get none.'}
              </pre>
            )}
          </>
        ) : null}
      </div>
    </section>
  );
}
