/** @jest-environment jsdom */
import { zodResolver } from '@hookform/resolvers/zod';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { ApiError, NetworkError, ValidationError } from '../api/api-error';
import { ErrorCallout } from '../components/error-callout';
import { FormTextField } from './form-fields';
import { serverTextOr, useServerErrors, type ServerErrorOptions } from './use-server-errors';

const Company = z.object({
  Name: z.string().trim().min(1, 'Name is required'),
  Email: z.string(),
  Industry: z.string(),
});
type Company = z.infer<typeof Company>;

/** A form as the pages build one, whose submit fails with `failure` (until it is null). */
const CompanyForm = (props: {
  failures: Error[];
  options?: Partial<ServerErrorOptions<Company>>;
  onSent?: (values: Company) => void;
}) => {
  const form = useForm({
    resolver: zodResolver(Company),
    defaultValues: { Name: 'Acme', Email: 'ada@example.com', Industry: '' },
  });
  const serverErrors = useServerErrors(form, {
    failure: serverTextOr('There was an error while saving.'),
    ...props.options,
  });
  const submit = form.handleSubmit(async (values) => {
    props.onSent?.(values);
    const failure = props.failures.shift();
    try {
      if (failure !== undefined) await Promise.reject(failure);
    } catch (error) {
      serverErrors.show(error);
    }
  });
  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-label="Company">
      <ErrorCallout message={serverErrors.message} />
      <FormTextField control={form.control} name="Name" label="Name" />
      <FormTextField control={form.control} name="Email" label="Email" />
      <FormTextField control={form.control} name="Industry" label="Industry" />
      <button type="submit">Save</button>
    </form>
  );
};

const save = () => userEvent.click(screen.getByRole('button', { name: 'Save' }));
const errorOf = (label: string) => {
  const describedBy = screen.getByLabelText(label).getAttribute('aria-describedby');
  return describedBy ? (document.getElementById(describedBy)?.textContent ?? null) : null;
};

describe('useServerErrors: a failed submit shown where the person looks', () => {
  it('puts a 422 property against its field, as the spec text of its code, and focuses it', async () => {
    render(
      <CompanyForm failures={[new ValidationError('Validation failed', { 'body.Email': 'not_unique' })]} />,
    );
    await save();
    await screen.findByText('The email is already in use.');
    expect(errorOf('Email')).toBe('The email is already in use.');
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('Email'));
    // Every property sat on a field: no second copy of the failure above the form.
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows a property under the field the form names it by (an alias)', async () => {
    render(
      <CompanyForm
        failures={[
          new ValidationError('Validation failed', { 'Industry.FreeForm': 'Please enter an industry' }),
        ]}
        options={{ aliases: { 'Industry.FreeForm': 'Industry' } }}
      />,
    );
    await save();
    await screen.findByText('Please enter an industry');
    expect(errorOf('Industry')).toBe('Please enter an industry');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says the failure above the form when a property names no field it shows', async () => {
    render(
      <CompanyForm
        failures={[
          new ValidationError('The plan does not exist.', { Name: 'required', PlanIdentifier: 'invalid' }),
        ]}
      />,
    );
    await save();
    expect((await screen.findByRole('alert')).textContent).toBe('The plan does not exist.');
    // The field it does show still gets its own text.
    expect(errorOf('Name')).toBe('This field is required.');
  });

  it('treats a field the form does not show now as no field', async () => {
    render(
      <CompanyForm
        failures={[new ValidationError('Email is taken somewhere else.', { Email: 'not_unique' })]}
        options={{ shownFields: ['Name', 'Industry'] }}
      />,
    );
    await save();
    expect((await screen.findByRole('alert')).textContent).toBe('Email is taken somewhere else.');
  });

  it('says the server text of any other API failure, the fallback for anything else', async () => {
    render(
      <CompanyForm
        failures={[
          new NetworkError('The operation failed to reach our servers.'),
          new TypeError('x is undefined'),
        ]}
      />,
    );
    await save();
    expect((await screen.findByRole('alert')).textContent).toBe('The operation failed to reach our servers.');
    await save();
    expect((await screen.findByRole('alert')).textContent).toBe('There was an error while saving.');
  });

  it('says a fixed catalogue text when the form asks for one, even beside its field errors', async () => {
    render(
      <CompanyForm
        failures={[new ValidationError('Validation failed', { Name: 'len' })]}
        options={{ failure: 'There was an error while updating the company.', alwaysSayFailure: true }}
      />,
    );
    await save();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'There was an error while updating the company.',
    );
    expect(errorOf('Name')).toBe('The supplied value is too short.');
  });

  it('clears the form message on the next submit, which the form rules still guard', async () => {
    const sent: Company[] = [];
    render(
      <CompanyForm
        failures={[new ApiError('The operation failed. Please try again.', { status: 503 })]}
        onSent={(values) => sent.push(values)}
      />,
    );
    await save();
    expect((await screen.findByRole('alert')).textContent).toBe('The operation failed. Please try again.');
    await userEvent.clear(screen.getByLabelText('Name'));
    await save();
    await screen.findByText('Name is required');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(sent).toHaveLength(1);
  });
});
