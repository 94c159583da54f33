import type { ComponentProps } from 'react';
import { useController, type Control, type FieldValues, type Path } from 'react-hook-form';
import { CheckboxField } from './checkbox-field';
import { SelectField } from './select-field';
import { TextField } from './text-field';

/** A field of a react-hook-form form: its value, change and error come from the form by name. */
type Bound<T extends FieldValues, C, R extends FieldValues, Props> = Omit<
  Props,
  'name' | 'value' | 'onValueChange' | 'checked' | 'onCheckedChange' | 'error' | 'inputRef'
> & { control: Control<T, C, R>; name: Path<T> };

export const FormTextField = <T extends FieldValues, C, R extends FieldValues>({
  control,
  name,
  ...rest
}: Bound<T, C, R, ComponentProps<typeof TextField>>) => {
  const { field, fieldState } = useController({ control, name });
  return (
    <TextField
      {...rest}
      name={name}
      value={field.value ?? ''}
      onValueChange={field.onChange}
      error={fieldState.error?.message}
      inputRef={field.ref}
    />
  );
};

export const FormSelectField = <T extends FieldValues, C, R extends FieldValues>({
  control,
  name,
  ...rest
}: Bound<T, C, R, ComponentProps<typeof SelectField>>) => {
  const { field, fieldState } = useController({ control, name });
  return (
    <SelectField
      {...rest}
      name={name}
      value={String((field.value as string | number | null | undefined) ?? '')}
      onValueChange={field.onChange}
      error={fieldState.error?.message}
      inputRef={field.ref}
    />
  );
};

export const FormCheckboxField = <T extends FieldValues, C, R extends FieldValues>({
  control,
  name,
  ...rest
}: Bound<T, C, R, ComponentProps<typeof CheckboxField>>) => {
  const { field, fieldState } = useController({ control, name });
  return (
    <CheckboxField
      {...rest}
      name={name}
      checked={Boolean(field.value)}
      onCheckedChange={field.onChange}
      error={fieldState.error?.message}
      inputRef={field.ref}
    />
  );
};
