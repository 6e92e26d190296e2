import { forwardRef, type SelectHTMLAttributes } from 'react';

/** Transactional or marketing: the one choice every domain form asks. */
export const SendingTypeSelect = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement> & { label?: string }>(function SendingTypeSelect({ id, label = 'Sending type', ...props }, ref) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <select ref={ref} id={id} className="mt-1 rounded-md border-0 py-2 pl-3 pr-8 text-sm ring-1 ring-inset ring-slate-300" {...props}>
        <option value="transactional">Transactional</option>
        <option value="marketing">Marketing</option>
      </select>
    </div>
  );
});
