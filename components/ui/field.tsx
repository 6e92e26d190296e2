'use client';

import {
  createContext,
  forwardRef,
  useContext,
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';

const CONTROL =
  'block w-full rounded-md border-0 px-3 py-2 text-sm shadow-sm ring-1 ring-inset ring-slate-300 placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-brand-600 aria-[invalid=true]:ring-red-500';
const SELECT =
  'block w-full rounded-md border-0 py-2 pl-3 pr-8 text-sm shadow-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-inset focus:ring-brand-600 aria-[invalid=true]:ring-red-500';

/**
 * What a Field tells the control inside it (however deep): its id, which text describes it, whether
 * it is invalid or required. The controls below read it, so a field cannot forget to wire them.
 */
type FieldControl = { id: string; describedBy: string | undefined; isInvalid: boolean; isRequired: boolean };
const FieldContext = createContext<FieldControl | null>(null);

/** The control's accessibility attributes: its own props win over the field's. */
function useFieldControl(props: {
  id?: string;
  isInvalid?: boolean;
  'aria-describedby'?: string;
  'aria-required'?: boolean | 'true' | 'false';
}) {
  const field = useContext(FieldContext);
  // Either says so: the form's own check (isInvalid) or an error shown under the field (a server's).
  const isInvalid = Boolean(props.isInvalid) || Boolean(field?.isInvalid);
  return {
    id: props.id ?? field?.id,
    'aria-describedby': [field?.describedBy, props['aria-describedby']].filter(Boolean).join(' ') || undefined,
    'aria-invalid': isInvalid || undefined,
    'aria-required': props['aria-required'] ?? (field?.isRequired || undefined),
  };
}

/**
 * The one labelled field: a label, its control (the child), a hint, and the error that belongs to it
 * (from the form or the server), which replaces the hint while it shows. `isCompact` is the small
 * grey label of a filter bar.
 */
export function Field({
  label,
  hint,
  error,
  children,
  htmlFor,
  isRequired = false,
  isCompact = false,
  className = '',
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  htmlFor?: string;
  isRequired?: boolean;
  isCompact?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const generated = useId();
  const id = htmlFor ?? generated;
  const hintId = hint && !error ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const control: FieldControl = { id, describedBy: errorId ?? hintId, isInvalid: Boolean(error), isRequired };
  return (
    <div className={`${isCompact ? 'space-y-1 text-xs' : 'space-y-1'} ${className}`}>
      <label
        htmlFor={id}
        className={isCompact ? 'block text-xs font-medium text-slate-600' : 'block text-sm font-medium text-slate-800'}
      >
        {label}
        {isRequired ? (
          <span className="ml-0.5 text-red-600" aria-hidden>
            *
          </span>
        ) : null}
      </label>
      <FieldContext.Provider value={control}>{children}</FieldContext.Provider>
      {hintId ? (
        <p id={hintId} className={isCompact ? 'text-xs font-normal text-slate-600' : 'text-xs text-slate-500'}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-xs font-medium text-red-600" role="alert" data-field-error={id}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

type ControlProps = { isInvalid?: boolean };

export const TextInput = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement> & ControlProps>(
  function TextInput({ isInvalid, className = '', ...props }, ref) {
    const wiring = useFieldControl({ ...props, isInvalid });
    return <input ref={ref} className={`${CONTROL} ${className}`} {...props} {...wiring} />;
  },
);

export const TextArea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement> & ControlProps>(
  function TextArea({ isInvalid, className = '', ...props }, ref) {
    const wiring = useFieldControl({ ...props, isInvalid });
    return <textarea ref={ref} className={`${CONTROL} font-mono ${className}`} {...props} {...wiring} />;
  },
);

export const Select = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement> & ControlProps>(
  function Select({ isInvalid, className = '', ...props }, ref) {
    const wiring = useFieldControl({ ...props, isInvalid });
    return <select ref={ref} className={`${SELECT} ${className}`} {...props} {...wiring} />;
  },
);

export function Checkbox({
  label,
  description,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { label: string; description?: string }) {
  const id = useId();
  return (
    <div className="flex items-start gap-2">
      <input id={id} type="checkbox" className="mt-0.5 size-4 rounded border-slate-300 text-brand-600" {...props} />
      <label htmlFor={id} className="text-sm text-slate-800">
        {label}
        {description ? <span className="block text-xs text-slate-500">{description}</span> : null}
      </label>
    </div>
  );
}
