import type { Ref } from 'react';

type CheckboxFieldProps = {
  name: string;
  label: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
  error?: string | undefined;
  /** Lets a form library focus the box (the first field in error). */
  inputRef?: Ref<HTMLInputElement>;
};

/** A labelled checkbox with a visible focus ring; its error announced with it. */
export const CheckboxField = ({
  name,
  label,
  checked,
  onCheckedChange,
  disabled,
  error,
  inputRef,
}: CheckboxFieldProps) => {
  const id = `field-${name}`;
  return (
    <div className="space-y-1">
      <div className="flex items-center gap-2">
        <input
          ref={inputRef}
          id={id}
          name={name}
          type="checkbox"
          checked={checked}
          disabled={disabled}
          onChange={(event) => onCheckedChange(event.target.checked)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className="h-4 w-4 rounded border-gray-300 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600"
        />
        <label htmlFor={id} className="text-sm text-gray-700">
          {label}
        </label>
      </div>
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-600">
          {error}
        </p>
      )}
    </div>
  );
};
