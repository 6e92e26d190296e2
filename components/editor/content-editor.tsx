'use client';

import { useCallback, useRef, useState, type RefObject } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Alert } from '@/components/ui/feedback';
import {
  CONTENT_FORMATS,
  hasContent,
  type ContentFormat,
  type ContentValue,
  type SourceError,
} from '@/lib/client/content-format';
import { useMediaPicker } from '@/components/media/use-media-picker';
import type { PickMedia } from './add-image-dialog';
import { BlockEditor } from './block-editor';
import { CodeEditor, type InsertTarget, type SourceProblem } from './code-editor';
import { InsertFieldMenu } from './insert-field-menu';

const NO_PROBLEMS: SourceProblem[] = [];

/**
 * One body, written visually (blocks), in Markdown or in HTML: the same editor for templates and
 * campaigns. The format is chosen first; switching a body that has content is confirmed, because
 * content does not convert. "Insert field" writes where the cursor last was.
 */
export function ContentEditor({
  accountId,
  idPrefix,
  htmlLabel,
  value,
  sourceError,
  isReadOnly,
  canReadAttributes,
  pickMedia,
  insertTarget: sharedTarget,
  onChange,
}: {
  accountId: string;
  idPrefix: string;
  htmlLabel: string;
  value: ContentValue;
  sourceError: SourceError | null;
  isReadOnly: boolean;
  canReadAttributes: boolean;
  pickMedia?: PickMedia;
  /** Where "insert field" writes, shared with the page's own fields (subject, preview text). */
  insertTarget?: RefObject<InsertTarget | null>;
  onChange: (value: ContentValue) => void;
}) {
  const [pending, setPending] = useState<ContentFormat | null>(null);
  // Images come from the account's media library unless the page brings its own picker.
  const library = useMediaPicker(accountId);
  const pickImage = pickMedia ?? library.pickMedia;
  const ownTarget = useRef<InsertTarget | null>(null);
  const insertTarget = sharedTarget ?? ownTarget;
  const onFocusTarget = useCallback(
    (target: InsertTarget) => {
      insertTarget.current = target;
    },
    [insertTarget],
  );
  const source = CONTENT_FORMATS.find((format) => format.name === value.format)!.source;
  const errorHere = sourceError && sourceError.field === source ? sourceError : null;
  const problems =
    errorHere && errorHere.line !== null && value.format !== 'blocks'
      ? [{ line: errorHere.line, message: errorHere.message }]
      : NO_PROBLEMS;
  const choose = (format: ContentFormat) => {
    if (format === value.format) return;
    if (hasContent(value)) setPending(format);
    else onChange({ ...value, format });
  };

  return (
    <div className="min-w-0 space-y-3" data-testid={`${idPrefix}-content-editor`}>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <fieldset>
          <legend className="mb-1 text-sm font-medium text-slate-800">Format</legend>
          <div className="inline-flex rounded-md ring-1 ring-slate-300" role="radiogroup" aria-label="Format">
            {CONTENT_FORMATS.map((format) => (
              <label
                key={format.name}
                className={`cursor-pointer px-3 py-1.5 text-sm first:rounded-l-md last:rounded-r-md has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-600 ${value.format === format.name ? 'bg-brand-600 font-medium text-white' : 'bg-white text-slate-700 hover:bg-slate-50'}`}
              >
                <input
                  type="radio"
                  className="sr-only"
                  name={`${idPrefix}-format`}
                  value={format.name}
                  checked={value.format === format.name}
                  disabled={isReadOnly}
                  onChange={() => choose(format.name)}
                />
                {format.label}
              </label>
            ))}
          </div>
        </fieldset>
        {isReadOnly ? null : (
          <InsertFieldMenu
            accountId={accountId}
            canReadAttributes={canReadAttributes}
            isDisabled={isReadOnly}
            onInsert={(text) => insertTarget.current?.(text)}
          />
        )}
      </div>
      {errorHere && problems.length === 0 ? (
        <div data-testid="content-error">
          <Alert tone="error">{errorHere.message}</Alert>
        </div>
      ) : null}
      {value.format === 'blocks' ? (
        <BlockEditor
          document={value.blocks_content}
          isReadOnly={isReadOnly}
          onChange={(blocks_content) => onChange({ ...value, blocks_content })}
          onFocusTarget={onFocusTarget}
          pickMedia={pickImage}
        />
      ) : value.format === 'markdown' ? (
        <CodeEditor
          id={`${idPrefix}-markdown`}
          label="Markdown"
          language="markdown"
          value={value.markdown_content}
          problems={problems}
          isReadOnly={isReadOnly}
          onChange={(markdown_content) => onChange({ ...value, markdown_content })}
          onFocusTarget={onFocusTarget}
        />
      ) : (
        <CodeEditor
          id={`${idPrefix}-html`}
          label={htmlLabel}
          language="html"
          value={value.html_content}
          problems={problems}
          isReadOnly={isReadOnly}
          onChange={(html_content) => onChange({ ...value, html_content })}
          onFocusTarget={onFocusTarget}
        />
      )}
      <ConfirmDialog
        isOpen={pending !== null}
        title={`Switch to ${CONTENT_FORMATS.find((format) => format.name === pending)?.label ?? ''}?`}
        confirmLabel="Switch format"
        variant="primary"
        onConfirm={async () => {
          if (pending) onChange({ ...value, format: pending });
        }}
        onClose={() => setPending(null)}
      >
        <p>
          Content does not convert between formats. You start from this format&apos;s own source (empty if it has none),
          and what you wrote in {CONTENT_FORMATS.find((format) => format.name === value.format)?.label} is no longer
          sent.
        </p>
      </ConfirmDialog>
      {pickMedia ? null : library.picker}
    </div>
  );
}
