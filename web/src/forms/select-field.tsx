import type { Ref } from 'react';

type SelectFieldProps = {
  /** Also the select's name and id prefix. */
  name: string;
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  options: readonly { value: string; label: string }[];
  /** A first, empty choice ("" value), such as a blank job function or "no change". */
  blankLabel?: string;
  error?: string | undefined;
  hint?: string;
  disabled?: boolean;
  /** Lets a form library focus the select (the first field in error). */
  inputRef?: Ref<HTMLSelectElement>;
};

/** A labelled native select: keyboard and screen-reader friendly, its error announced with it. */
export const SelectField = ({
  name,
  label,
  value,
  onValueChange,
  options,
  inputRef,
  ...rest
}: SelectFieldProps) => {
  const id = `field-${name}`;
  const described = [rest.error ? `${id}-error` : null, rest.hint ? `${id}-hint` : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-gray-700">
        {label}
      </label>
      <select
        ref={inputRef}
        id={id}
        name={name}
        value={value}
        disabled={rest.disabled}
        onChange={(event) => onValueChange(event.target.value)}
        aria-invalid={rest.error ? true : undefined}
        aria-describedby={described || undefined}
        className={`w-full rounded-tremor-default border bg-white px-3 py-2 text-sm shadow-tremor-input focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600 disabled:bg-gray-100 ${rest.error ? 'border-red-500' : 'border-gray-300'}`}
      >
        {rest.blankLabel !== undefined && <option value="">{rest.blankLabel}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {rest.hint && (
        <p id={`${id}-hint`} className="text-xs text-gray-500">
          {rest.hint}
        </p>
      )}
      {rest.error && (
        <p id={`${id}-error`} className="text-sm text-red-600">
          {rest.error}
        </p>
      )}
    </div>
  );
};
