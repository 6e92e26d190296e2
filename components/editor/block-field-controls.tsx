'use client';

import type { FocusEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Field, Select, TextInput } from '@/components/ui/field';
import { SOCIAL_NETWORKS, type Block, type BlockStyle } from '@/lib/client/blocks-editing';
import type { InsertTarget } from './code-editor';

export type BlockFieldsProps<T extends Block = Block> = {
  block: T;
  isReadOnly: boolean;
  onChange: (block: T) => void;
  onFocusTarget: (target: InsertTarget) => void;
  pickMedia?: () => Promise<{ src: string; alt?: string } | null>;
};

export const intOrUndefined = (text: string) =>
  text.trim() === '' || !Number.isFinite(Number(text)) ? undefined : Math.round(Number(text));

/**
 * Where "insert field" writes for a text control: at its caret (kept while the menu has focus). The
 * text goes in as typing would (an input event), so the block's current handlers apply it.
 */
export function textTargetOf(event: FocusEvent<HTMLInputElement | HTMLTextAreaElement>) {
  const element = event.currentTarget;
  return (text: string) => {
    if (!element.isConnected) return;
    const start = element.selectionStart ?? element.value.length;
    const end = element.selectionEnd ?? start;
    const setValue = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(element), 'value')?.set;
    setValue?.call(element, element.value.slice(0, start) + text + element.value.slice(end));
    element.dispatchEvent(new Event('input', { bubbles: true }));
    element.focus();
    element.setSelectionRange(start + text.length, start + text.length);
  };
}

/** A colour that may be unset: the picker, and a button that goes back to the default. */
export function ColorField({
  label,
  value,
  fallback,
  isReadOnly,
  onChange,
}: {
  label: string;
  value: string | undefined;
  fallback: string;
  isReadOnly: boolean;
  onChange: (value: string | undefined) => void;
}) {
  return (
    <Field label={label} isCompact>
      <span className="flex items-center gap-2">
        <input
          type="color"
          aria-label={label}
          disabled={isReadOnly}
          value={value ?? fallback}
          onChange={(event) => onChange(event.target.value)}
          className="h-8 w-12 shrink-0 cursor-pointer rounded border border-slate-300 bg-white"
        />
        {value && !isReadOnly ? (
          <button type="button" className="text-xs text-slate-600 underline" onClick={() => onChange(undefined)}>
            Default
          </button>
        ) : null}
      </span>
    </Field>
  );
}

export function StyleFields({
  style = {},
  isReadOnly,
  onChange,
}: {
  style?: BlockStyle;
  isReadOnly: boolean;
  onChange: (style: BlockStyle) => void;
}) {
  const set = (patch: Partial<BlockStyle>) => onChange({ ...style, ...patch });
  return (
    <details className="rounded-md bg-slate-50 p-2 text-sm">
      <summary className="cursor-pointer text-xs font-medium text-slate-700">Block style</summary>
      <div className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-3">
        <Field label="Align" isCompact>
          <Select
            disabled={isReadOnly}
            value={style.align ?? ''}
            onChange={(event) => set({ align: (event.target.value || undefined) as BlockStyle['align'] })}
          >
            <option value="">Default</option>
            <option value="left">Left</option>
            <option value="center">Centre</option>
            <option value="right">Right</option>
          </Select>
        </Field>
        <Field label="Padding (px)" isCompact>
          <TextInput
            type="number"
            min={0}
            max={64}
            readOnly={isReadOnly}
            value={style.padding ?? ''}
            onChange={(event) => set({ padding: intOrUndefined(event.target.value) })}
          />
        </Field>
        <Field label="Font size (px)" isCompact>
          <TextInput
            type="number"
            min={10}
            max={48}
            readOnly={isReadOnly}
            value={style.fontSize ?? ''}
            onChange={(event) => set({ fontSize: intOrUndefined(event.target.value) })}
          />
        </Field>
        <ColorField
          label="Text colour"
          value={style.color}
          fallback="#18181b"
          isReadOnly={isReadOnly}
          onChange={(color) => set({ color })}
        />
        <ColorField
          label="Background"
          value={style.backgroundColor}
          fallback="#ffffff"
          isReadOnly={isReadOnly}
          onChange={(backgroundColor) => set({ backgroundColor })}
        />
      </div>
    </details>
  );
}

export function ImageFields({
  block,
  isReadOnly,
  onChange,
  pickMedia,
}: Omit<BlockFieldsProps<Extract<Block, { type: 'image' }>>, 'onFocusTarget'>) {
  const isMissingAlt = !block.alt.trim();
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <Field label="Image URL" isCompact isRequired error={block.src.trim() ? null : 'An image needs its URL.'}>
        <TextInput
          type="url"
          readOnly={isReadOnly}
          value={block.src}
          placeholder="https://…"
          onChange={(event) => onChange({ ...block, src: event.target.value })}
        />
      </Field>
      <Field
        label="Alt text"
        isCompact
        isRequired
        hint="What the image shows, for readers who do not see it."
        error={isMissingAlt ? 'Describe the image: mail clients that block images show this instead.' : null}
      >
        <TextInput
          readOnly={isReadOnly}
          value={block.alt}
          onChange={(event) => onChange({ ...block, alt: event.target.value })}
        />
      </Field>
      <Field label="Link (optional)" isCompact>
        <TextInput
          readOnly={isReadOnly}
          value={block.href ?? ''}
          onChange={(event) => onChange({ ...block, href: event.target.value || undefined })}
        />
      </Field>
      <Field label="Width (px, optional)" isCompact>
        <TextInput
          type="number"
          min={16}
          max={800}
          readOnly={isReadOnly}
          value={block.width ?? ''}
          onChange={(event) => onChange({ ...block, width: intOrUndefined(event.target.value) })}
        />
      </Field>
      {pickMedia && !isReadOnly ? (
        <Button
          size="sm"
          variant="secondary"
          onClick={async () => {
            const picked = await pickMedia();
            if (picked) onChange({ ...block, src: picked.src, alt: block.alt || picked.alt || '' });
          }}
        >
          Choose from media library
        </Button>
      ) : null}
    </div>
  );
}

export function SocialFields({
  block,
  isReadOnly,
  onChange,
}: Omit<BlockFieldsProps<Extract<Block, { type: 'social' }>>, 'onFocusTarget'>) {
  const setLink = (index: number, patch: Partial<(typeof block.links)[number]>) =>
    onChange({ ...block, links: block.links.map((link, at) => (at === index ? { ...link, ...patch } : link)) });
  return (
    <div className="space-y-2">
      {block.links.map((link, index) => (
        <div key={index} className="flex flex-wrap items-end gap-2">
          <Field label="Network" isCompact>
            <Select
              disabled={isReadOnly}
              value={link.network}
              onChange={(event) => setLink(index, { network: event.target.value as typeof link.network })}
            >
              {SOCIAL_NETWORKS.map((network) => (
                <option key={network} value={network}>
                  {network}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="URL" isCompact className="min-w-0 flex-1">
            <TextInput
              readOnly={isReadOnly}
              value={link.url}
              onChange={(event) => setLink(index, { url: event.target.value })}
            />
          </Field>
          {isReadOnly ? null : (
            <Button
              size="sm"
              variant="ghost"
              onClick={() => onChange({ ...block, links: block.links.filter((_, at) => at !== index) })}
            >
              Remove
            </Button>
          )}
        </div>
      ))}
      {isReadOnly || block.links.length >= 8 ? null : (
        <Button
          size="sm"
          variant="secondary"
          onClick={() => onChange({ ...block, links: [...block.links, { network: 'website', url: '' }] })}
        >
          Add a link
        </Button>
      )}
    </div>
  );
}
