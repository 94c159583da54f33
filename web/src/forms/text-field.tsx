import { TextInput } from '@tremor/react';
import type { ComponentProps, Ref } from 'react';

type TextFieldProps = {
  /** Also the input's name and id prefix. */
  name: string;
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  error?: string | undefined;
  hint?: string;
  /** Lets a form library focus the input (the first field in error). */
  inputRef?: Ref<HTMLInputElement>;
} & Pick<ComponentProps<typeof TextInput>, 'type' | 'autoComplete' | 'required' | 'disabled' | 'autoFocus'>;

/** A labelled input whose error and hint are announced with it (aria-describedby). */
export const TextField = ({
  name,
  label,
  error,
  hint,
  value,
  onValueChange,
  inputRef,
  ...input
}: TextFieldProps) => {
  const id = `field-${name}`;
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ');
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-gray-700">
        {label}
      </label>
      <TextInput
        ref={inputRef}
        id={id}
        name={name}
        value={value}
        onValueChange={onValueChange}
        placeholder=""
        error={Boolean(error)}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        {...input}
      />
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-gray-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-600">
          {error}
        </p>
      )}
    </div>
  );
};
