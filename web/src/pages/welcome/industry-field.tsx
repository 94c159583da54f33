import type { Ref } from 'react';
import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';
import type { Industry } from '../../../../contracts/industries';

const inputClasses =
  'w-full rounded-tremor-default border px-3 py-2 text-sm shadow-tremor-input outline-none focus-visible:ring-2 focus-visible:ring-blue-500';

type IndustryFieldProps = {
  value: string;
  onValueChange: (value: string) => void;
  industries: readonly Industry[];
  error?: string | undefined;
  inputRef?: Ref<HTMLInputElement>;
};

/**
 * Industry with autocomplete from NAICS 2017 (portal.md section 2.3). A native datalist: any text is
 * allowed (Industry.FreeForm), the suggestions work by keyboard and screen reader.
 */
export const IndustryField = ({ value, onValueChange, industries, error, inputRef }: IndustryFieldProps) => (
  <div className="space-y-1">
    <label htmlFor="field-Industry" className="block text-sm font-medium text-gray-700">
      Industry
    </label>
    <input
      ref={inputRef}
      id="field-Industry"
      name="Industry"
      list="industry-options"
      autoComplete="off"
      value={value}
      onChange={(event) => onValueChange(event.target.value)}
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? 'field-Industry-error' : undefined}
      className={`${inputClasses} ${error ? 'border-red-500' : 'border-gray-300'}`}
    />
    <datalist id="industry-options">
      {industries.map((industry) => (
        <option key={industry.Code} value={industry.Title} />
      ))}
    </datalist>
    {error && (
      <p id="field-Industry-error" className="text-sm text-red-600">
        {error}
      </p>
    )}
  </div>
);

/** The industry field of a react-hook-form form: its text is the form's `name` field. */
export const FormIndustryField = <T extends FieldValues, C, R extends FieldValues>(props: {
  control: Control<T, C, R>;
  name: Path<T>;
  industries: readonly Industry[];
}) => {
  const { field, fieldState } = useController({ control: props.control, name: props.name });
  return (
    <IndustryField
      value={field.value ?? ''}
      onValueChange={field.onChange}
      industries={props.industries}
      error={fieldState.error?.message}
      inputRef={field.ref}
    />
  );
};
