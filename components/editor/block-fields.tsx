'use client';

import type { FocusEvent, ReactNode } from 'react';
import { Field, Select, TextArea, TextInput } from '@/components/ui/field';
import { BLOCK_LABELS, newLeaf, type Block, type LeafBlock } from '@/lib/client/blocks-editing';
import {
  ColorField,
  ImageFields,
  intOrUndefined,
  SocialFields,
  StyleFields,
  textTargetOf,
  type BlockFieldsProps,
} from './block-field-controls';
import { useOfferUndo } from './undo-removal';

function ContentFields({ block, isReadOnly, onChange, onFocusTarget, pickMedia }: BlockFieldsProps) {
  // A text control that "insert field" can write into.
  const textControl = (key: string, label: string, value: string, apply: (next: string) => void, rows = 0) => {
    const common = {
      'aria-label': label,
      readOnly: isReadOnly,
      value,
      onFocus: (event: FocusEvent<HTMLInputElement & HTMLTextAreaElement>) => onFocusTarget(textTargetOf(event)),
    };
    return (
      <Field label={label} isCompact key={key}>
        {rows ? (
          <TextArea rows={rows} {...common} onChange={(event) => apply(event.target.value)} />
        ) : (
          <TextInput {...common} onChange={(event) => apply(event.target.value)} />
        )}
      </Field>
    );
  };
  switch (block.type) {
    case 'heading':
      return (
        <div className="grid gap-3 sm:grid-cols-[1fr_7rem]">
          {textControl('text', 'Heading text', block.text, (text) => onChange({ ...block, text }))}
          <Field label="Level" isCompact>
            <Select
              disabled={isReadOnly}
              value={block.level}
              onChange={(event) => onChange({ ...block, level: Number(event.target.value) as 1 | 2 | 3 })}
            >
              <option value={1}>Large</option>
              <option value={2}>Medium</option>
              <option value={3}>Small</option>
            </Select>
          </Field>
        </div>
      );
    case 'text':
      return textControl('text', 'Text', block.text, (text) => onChange({ ...block, text }), 4);
    case 'footer':
      return textControl('text', 'Footer text', block.text, (text) => onChange({ ...block, text }), 2);
    case 'html':
      return textControl('html', 'HTML', block.html, (html) => onChange({ ...block, html }), 5);
    case 'button':
      return (
        <div className="grid gap-3 sm:grid-cols-2">
          {textControl('text', 'Button text', block.text, (text) => onChange({ ...block, text }))}
          {textControl('href', 'Button link', block.href, (href) => onChange({ ...block, href }))}
          <ColorField
            label="Button colour"
            value={block.backgroundColor}
            fallback="#2563eb"
            isReadOnly={isReadOnly}
            onChange={(backgroundColor) => onChange({ ...block, backgroundColor })}
          />
          <ColorField
            label="Button text colour"
            value={block.color}
            fallback="#ffffff"
            isReadOnly={isReadOnly}
            onChange={(color) => onChange({ ...block, color })}
          />
        </div>
      );
    case 'image':
      return <ImageFields block={block} isReadOnly={isReadOnly} onChange={onChange} pickMedia={pickMedia} />;
    case 'divider':
      return (
        <div className="grid grid-cols-2 gap-3">
          <ColorField
            label="Line colour"
            value={block.color}
            fallback="#e4e4e7"
            isReadOnly={isReadOnly}
            onChange={(color) => onChange({ ...block, color })}
          />
          <Field label="Thickness (px)" isCompact>
            <TextInput
              type="number"
              min={1}
              max={8}
              readOnly={isReadOnly}
              value={block.thickness ?? ''}
              onChange={(event) => onChange({ ...block, thickness: intOrUndefined(event.target.value) })}
            />
          </Field>
        </div>
      );
    case 'spacer':
      return (
        <Field label="Height (px)" isCompact>
          <TextInput
            type="number"
            min={4}
            max={200}
            readOnly={isReadOnly}
            value={block.height}
            onChange={(event) => onChange({ ...block, height: intOrUndefined(event.target.value) ?? 4 })}
          />
        </Field>
      );
    case 'social':
      return <SocialFields block={block} isReadOnly={isReadOnly} onChange={onChange} />;
    case 'columns':
      return (
        <ColumnsFields
          block={block}
          isReadOnly={isReadOnly}
          onChange={onChange}
          onFocusTarget={onFocusTarget}
          pickMedia={pickMedia}
        />
      );
  }
}

const CHILD_TYPES = (['heading', 'text', 'image', 'button', 'divider', 'spacer', 'social', 'html'] as const).map(
  (type) => ({
    type,
    label: BLOCK_LABELS[type],
  }),
);

function ColumnsFields({
  block,
  isReadOnly,
  onChange,
  onFocusTarget,
  pickMedia,
}: BlockFieldsProps<Extract<Block, { type: 'columns' }>>) {
  const offerUndo = useOfferUndo();
  const setColumn = (index: number, children: LeafBlock[]) =>
    onChange({ ...block, columns: block.columns.map((column, at) => (at === index ? children : column)) });
  const moveChild = (index: number, from: number, to: number) => {
    const children = [...block.columns[index]];
    const [moved] = children.splice(from, 1);
    children.splice(to, 0, moved);
    setColumn(index, children);
  };
  const removeChild = (index: number, at: number) => {
    const removed = block.columns[index][at];
    setColumn(
      index,
      block.columns[index].filter((_, k) => k !== at),
    );
    // Put back into this columns block as it is at undo time (its other children may have changed).
    offerUndo({
      label: `${BLOCK_LABELS[removed.type]} removed from column ${index + 1}.`,
      restore: (document) => ({
        ...document,
        blocks: document.blocks.map((candidate) =>
          candidate.id === block.id && candidate.type === 'columns'
            ? {
                ...candidate,
                columns: candidate.columns.map((column, c) =>
                  c === index ? [...column.slice(0, at), removed, ...column.slice(at)] : column,
                ),
              }
            : candidate,
        ),
      }),
    });
  };
  return (
    <div className="space-y-3">
      <Field label="Columns" isCompact>
        <Select
          disabled={isReadOnly}
          value={block.columns.length}
          onChange={(event) => {
            const count = Number(event.target.value);
            onChange({
              ...block,
              columns: count === 3 ? [...block.columns.slice(0, 2), block.columns[2] ?? []] : block.columns.slice(0, 2),
            });
          }}
        >
          <option value={2}>2</option>
          <option value={3}>3</option>
        </Select>
      </Field>
      <div className="grid gap-3 md:grid-cols-2">
        {block.columns.map((children, index) => (
          <fieldset key={index} className="min-w-0 space-y-2 rounded-md border border-dashed border-slate-300 p-2">
            <legend className="px-1 text-xs font-medium text-slate-700">Column {index + 1}</legend>
            {children.map((child, at) => (
              <div key={child.id} className="space-y-2 border-b border-slate-100 pb-2">
                <div className="flex flex-wrap items-center gap-1 text-xs font-medium text-slate-700">
                  <span className="mr-auto">{BLOCK_LABELS[child.type]}</span>
                  {isReadOnly ? null : (
                    <>
                      <button
                        type="button"
                        className="rounded px-1.5 py-0.5 hover:bg-slate-100 disabled:opacity-40"
                        disabled={at === 0}
                        aria-label={`Move ${BLOCK_LABELS[child.type]} ${at + 1} of column ${index + 1} up`}
                        onClick={() => moveChild(index, at, at - 1)}
                      >
                        ↑ Up
                      </button>
                      <button
                        type="button"
                        className="rounded px-1.5 py-0.5 hover:bg-slate-100 disabled:opacity-40"
                        disabled={at === children.length - 1}
                        aria-label={`Move ${BLOCK_LABELS[child.type]} ${at + 1} of column ${index + 1} down`}
                        onClick={() => moveChild(index, at, at + 1)}
                      >
                        ↓ Down
                      </button>
                      <button
                        type="button"
                        className="rounded px-1.5 py-0.5 text-red-700 underline hover:bg-slate-100"
                        aria-label={`Remove ${BLOCK_LABELS[child.type]} ${at + 1} of column ${index + 1}`}
                        onClick={() => removeChild(index, at)}
                      >
                        Remove
                      </button>
                    </>
                  )}
                </div>
                <ContentFields
                  block={child}
                  isReadOnly={isReadOnly}
                  onChange={(next) =>
                    setColumn(
                      index,
                      children.map((old, k) => (k === at ? (next as LeafBlock) : old)),
                    )
                  }
                  onFocusTarget={onFocusTarget}
                  pickMedia={pickMedia}
                />
              </div>
            ))}
            {isReadOnly ? null : (
              <Select
                aria-label={`Add to column ${index + 1}`}
                value=""
                onChange={(event) => {
                  const type = event.target.value as (typeof CHILD_TYPES)[number]['type'];
                  if (type) setColumn(index, [...children, newLeaf(type)]);
                }}
              >
                <option value="">Add to this column…</option>
                {CHILD_TYPES.map(({ type, label }) => (
                  <option key={type} value={type}>
                    {label}
                  </option>
                ))}
              </Select>
            )}
          </fieldset>
        ))}
      </div>
    </div>
  );
}

/** One block's content and its style. */
export function BlockFields(props: BlockFieldsProps): ReactNode {
  return (
    <div className="space-y-3">
      <ContentFields {...props} />
      {props.block.type === 'spacer' ? null : (
        <StyleFields
          style={props.block.style}
          isReadOnly={props.isReadOnly}
          onChange={(style) => props.onChange({ ...props.block, style } as Block)}
        />
      )}
    </div>
  );
}
