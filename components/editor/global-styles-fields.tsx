'use client';

import { Field, Select, TextInput } from '@/components/ui/field';
import { FONT_FAMILIES, STYLE_DEFAULTS, type GlobalStyles } from '@/lib/client/blocks-editing';
import { ColorField, intOrUndefined } from './block-field-controls';

const COLOURS = [
  { key: 'backgroundColor', label: 'Background' },
  { key: 'contentColor', label: 'Content background' },
  { key: 'textColor', label: 'Text colour' },
  { key: 'linkColor', label: 'Link colour' },
] as const;

/** The whole message's look: its width, colours and font; unset values take the renderer's defaults. */
export function GlobalStylesFields({
  styles,
  isReadOnly,
  onChange,
}: {
  styles: GlobalStyles;
  isReadOnly: boolean;
  onChange: (styles: GlobalStyles) => void;
}) {
  const set = (patch: Partial<GlobalStyles>) => onChange({ ...styles, ...patch });
  return (
    <details className="rounded-md ring-1 ring-slate-200" data-testid="global-styles">
      <summary className="cursor-pointer px-3 py-2 text-sm font-medium text-slate-800">Global styles</summary>
      <div className="grid grid-cols-2 gap-3 border-t border-slate-200 p-3 sm:grid-cols-4">
        <Field label="Width (px)" isCompact hint="480 to 800">
          <TextInput
            type="number"
            min={480}
            max={800}
            readOnly={isReadOnly}
            value={styles.width ?? ''}
            placeholder={String(STYLE_DEFAULTS.width)}
            onChange={(event) => set({ width: intOrUndefined(event.target.value) })}
          />
        </Field>
        <Field label="Font" isCompact>
          <Select
            disabled={isReadOnly}
            value={styles.fontFamily ?? STYLE_DEFAULTS.fontFamily}
            onChange={(event) => set({ fontFamily: event.target.value as GlobalStyles['fontFamily'] })}
          >
            {FONT_FAMILIES.map((font) => (
              <option key={font} value={font}>
                {font}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Font size (px)" isCompact hint="12 to 24">
          <TextInput
            type="number"
            min={12}
            max={24}
            readOnly={isReadOnly}
            value={styles.fontSize ?? ''}
            placeholder={String(STYLE_DEFAULTS.fontSize)}
            onChange={(event) => set({ fontSize: intOrUndefined(event.target.value) })}
          />
        </Field>
        {COLOURS.map(({ key, label }) => (
          <ColorField
            key={key}
            label={label}
            value={styles[key]}
            fallback={STYLE_DEFAULTS[key]}
            isReadOnly={isReadOnly}
            onChange={(color) => set({ [key]: color })}
          />
        ))}
      </div>
    </details>
  );
}
