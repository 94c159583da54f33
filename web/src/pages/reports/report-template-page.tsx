import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card } from '@tremor/react';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import { ReportSection, ReportTemplate } from '../../../../contracts/api/reports';
import { errorCatalogue } from '../../api/error-catalogue';
import { ErrorCallout } from '../../components/error-callout';
import { TextLink } from '../../components/text-link';
import { FormTextField } from '../../forms/form-fields';
import { serverTextOr, useServerErrors } from '../../forms/use-server-errors';
import { newTemplateId, sectionLabels, useReportTemplates, useSaveReportTemplates } from './report-templates';

const TemplateForm = ReportTemplate.omit({ id: true });

/**
 * /reports/new and /reports/{templateId}/edit (development only): an on-demand report's name and the
 * sections it prints, in the order listed.
 */
export const ReportTemplatePage = () => {
  const { templateId } = useParams();
  const navigate = useNavigate();
  const { templates, isPending } = useReportTemplates();
  const saveTemplates = useSaveReportTemplates();
  const editing = templateId === undefined ? null : (templates.find((t) => t.id === templateId) ?? null);
  const form = useForm({
    resolver: zodResolver(TemplateForm),
    defaultValues: { name: '', sections: ['summary', 'receivables-aging'] as ReportSection[] },
  });
  const serverErrors = useServerErrors(form, { failure: serverTextOr(errorCatalogue.default) });
  const { reset } = form;
  // The stored template fills the form once it has loaded (and again only if another one is opened).
  const loadedId = editing?.id;
  useEffect(() => {
    if (editing) reset({ name: editing.name, sections: editing.sections });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- by id: a refetch must not wipe what is typed
  }, [loadedId, reset]);

  if (templateId !== undefined && isPending) return <p className="p-4 text-sm text-gray-600">Loading...</p>;
  if (templateId !== undefined && !editing)
    return (
      <Card className="mx-auto max-w-2xl">
        <p className="text-sm text-gray-700">This report template does not exist.</p>
        <TextLink to="/reports">Back to reports</TextLink>
      </Card>
    );

  const submit = form.handleSubmit(async (values) => {
    const saved: ReportTemplate = { id: editing?.id ?? newTemplateId(), ...values };
    try {
      await saveTemplates(
        editing ? templates.map((t) => (t.id === editing.id ? saved : t)) : [...templates, saved],
      );
      void navigate('/reports');
    } catch (error) {
      serverErrors.show(error);
    }
  });

  return (
    <Card className="mx-auto max-w-2xl">
      <h1 className="mb-4 text-xl font-semibold text-gray-900">
        {editing ? `Edit ${editing.name}` : 'New report template'}
      </h1>
      <form
        noValidate
        onSubmit={(event) => void submit(event)}
        className="space-y-4"
        aria-label="Report template"
      >
        <ErrorCallout message={serverErrors.message} />
        <FormTextField control={form.control} name="name" label="Name" />
        <Controller
          control={form.control}
          name="sections"
          render={({ field, fieldState }) => (
            <fieldset
              className="space-y-2"
              aria-describedby={fieldState.error ? 'sections-error' : undefined}
            >
              <legend className="text-sm font-medium text-gray-700">Sections, in print order</legend>
              {ReportSection.options.map((section) => (
                <label key={section} className="flex items-center gap-2 text-sm text-gray-800">
                  <input
                    type="checkbox"
                    className="h-4 w-4"
                    checked={field.value.includes(section)}
                    onChange={(event) =>
                      field.onChange(
                        ReportSection.options.filter((option) =>
                          option === section ? event.target.checked : field.value.includes(option),
                        ),
                      )
                    }
                  />
                  {sectionLabels[section]}
                </label>
              ))}
              {fieldState.error && (
                <p id="sections-error" role="alert" className="text-sm text-red-700">
                  {fieldState.error.message}
                </p>
              )}
            </fieldset>
          )}
        />
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={() => void navigate('/reports')}>
            Cancel
          </Button>
          <Button type="submit" loading={form.formState.isSubmitting}>
            Save template
          </Button>
        </div>
      </form>
    </Card>
  );
};
