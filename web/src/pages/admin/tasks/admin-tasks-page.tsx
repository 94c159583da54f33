import { Button, Card } from '@tremor/react';
import { useState, type FormEvent } from 'react';
import { CronName, type TaskRequest } from '../../../../../contracts/api/jobs';
import { useCron, useRunTask } from '../../../api/queries/admin-tasks';
import { ErrorCallout, SuccessCallout } from '../../../components/error-callout';
import { useTimedMessage } from '../../../components/use-timed-message';
import { CheckboxField } from '../../../forms/checkbox-field';
import { SelectField } from '../../../forms/select-field';
import { TextField } from '../../../forms/text-field';
import { PageFrame } from '../../dashboard/stat-card';

/** admin.md section 8. */
export const taskFailureText = (error: unknown) =>
  `There was an error while creating task: ${(error instanceof Error ? error.message : String(error)).replace(/\.$/, '')}.`;
const createdText = (count: number) => `Jobs created... (${count})`;

const isId = (value: string) => /^\d{1,10}$/.test(value.trim()) && Number(value.trim()) > 0;

const taskLabels: Record<CronName, string> = {
  update_demo_seller: 'Update Demo Seller (update_demo_seller)',
  moveIndirectCustomer: 'Move Customer (moveIndirectCustomer)',
};

const timeText = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' });

type RunTask = (task: TaskRequest) => Promise<boolean>;

/** The task or cron trigger with parameters: its form comes from GET /api/cron/{name}. */
const TaskTrigger = ({ run, pending }: { run: RunTask; pending: boolean }) => {
  const [name, setName] = useState<CronName>('update_demo_seller');
  const cron = useCron(name);
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parameters = cron.data?.parameters ?? [];
    const found: Record<string, string> = {};
    const body: Record<string, unknown> = { name };
    for (const parameter of parameters) {
      const value = values[parameter.name];
      if (parameter.type === 'boolean') body[parameter.name] = value === true;
      else if (typeof value === 'string' && isId(value)) body[parameter.name] = Number(value.trim());
      else if (parameter.required || (typeof value === 'string' && value.trim() !== ''))
        found[parameter.name] = `Enter ${parameter.name} as a positive whole number.`;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    await run(body as TaskRequest);
  };

  return (
    <Card>
      <h2 className="mb-3 text-base font-semibold text-gray-900">Trigger a task</h2>
      <form
        noValidate
        className="space-y-3"
        aria-label="Trigger a task"
        onSubmit={(event) => void submit(event)}
      >
        <div className="sm:w-96">
          <SelectField
            name="taskName"
            label="Task"
            value={name}
            options={CronName.options.map((value) => ({ value, label: taskLabels[value] }))}
            onValueChange={(value) => {
              setName(CronName.parse(value));
              setValues({});
              setErrors({});
            }}
          />
        </div>
        {cron.data && <p className="text-sm text-gray-700">{cron.data.description}</p>}
        {cron.isError && <ErrorCallout message={cron.error.message} />}
        {cron.data?.parameters.map((parameter) =>
          parameter.type === 'boolean' ? (
            <CheckboxField
              key={parameter.name}
              name={`param-${parameter.name}`}
              label={`${parameter.name}: ${parameter.description}`}
              checked={values[parameter.name] === true}
              onCheckedChange={(checked) => setValues((v) => ({ ...v, [parameter.name]: checked }))}
            />
          ) : (
            <div key={parameter.name} className="sm:w-64">
              <TextField
                name={`param-${parameter.name}`}
                label={parameter.name}
                hint={parameter.description}
                value={typeof values[parameter.name] === 'string' ? String(values[parameter.name]) : ''}
                onValueChange={(value) => setValues((v) => ({ ...v, [parameter.name]: value }))}
                error={errors[parameter.name]}
              />
            </div>
          ),
        )}
        <Button type="submit" loading={pending}>
          Trigger
        </Button>
      </form>
      {cron.data && (
        <div className="mt-4">
          <h3 className="text-sm font-semibold text-gray-900">Latest runs</h3>
          {cron.data.recentJobs.length === 0 ? (
            <p className="text-sm text-gray-600">No Data</p>
          ) : (
            <ul className="mt-1 space-y-1 text-sm text-gray-800">
              {cron.data.recentJobs.map((job) => (
                <li key={job.Id}>
                  Job {job.Id}, {job.Status}, tenant {job.TenantId}, {timeText(job.createdAt)}
                  {job.Failure ? `: ${job.Failure}` : ''}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </Card>
  );
};

/**
 * /admin/tasks (admin.md section 2): Move Customer (customer id, Clean), Update Demo Seller
 * (only-fetch, Trigger Update) and the task trigger with parameters.
 */
export const AdminTasksPage = () => {
  const task = useRunTask();
  const [notice, setNotice] = useTimedMessage();
  const [failure, setFailure] = useState<string | null>(null);
  const [customerId, setCustomerId] = useState('');
  const [customerError, setCustomerError] = useState<string | undefined>(undefined);
  const [onlyFetch, setOnlyFetch] = useState(false);

  const run: RunTask = async (request) => {
    setFailure(null);
    setNotice(null);
    try {
      const { jobs } = await task.mutateAsync(request);
      setNotice(createdText(jobs.length));
      return true;
    } catch (error) {
      setFailure(taskFailureText(error));
      return false;
    }
  };

  return (
    <PageFrame title="Tasks">
      <SuccessCallout message={notice} />
      <ErrorCallout message={failure} />
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <h2 className="mb-1 text-base font-semibold text-gray-900">Move Customer</h2>
          <p className="mb-3 text-sm text-gray-600">
            A company whose subscription its advisory firm pays starts paying for itself; a firm client plan
            becomes the business plan. The customer id is the company&apos;s id.
          </p>
          <form
            noValidate
            className="flex flex-col gap-3 sm:flex-row sm:items-end"
            aria-label="Move Customer"
            onSubmit={(event) => {
              event.preventDefault();
              if (!isId(customerId)) {
                setCustomerError('Enter a customer id.');
                return;
              }
              setCustomerError(undefined);
              void run({ name: 'moveIndirectCustomer', customerId: Number(customerId.trim()) }).then(
                (ok) => ok && setCustomerId(''),
              );
            }}
          >
            <div className="sm:w-48">
              <TextField
                name="customerId"
                label="Customer id"
                value={customerId}
                onValueChange={setCustomerId}
                error={customerError}
              />
            </div>
            <Button type="submit" variant="secondary" disabled={task.isPending}>
              Clean
            </Button>
          </form>
        </Card>
        <Card>
          <h2 className="mb-3 text-base font-semibold text-gray-900">Update Demo Seller</h2>
          <form
            noValidate
            className="flex flex-col gap-3 sm:flex-row sm:items-center"
            aria-label="Update Demo Seller"
            onSubmit={(event) => {
              event.preventDefault();
              void run({ name: 'update_demo_seller', force: true, onlyFetch });
            }}
          >
            <CheckboxField
              name="onlyFetch"
              label="Only fetch"
              checked={onlyFetch}
              onCheckedChange={setOnlyFetch}
            />
            <Button type="submit" variant="secondary" disabled={task.isPending}>
              Trigger Update
            </Button>
          </form>
        </Card>
      </div>
      <TaskTrigger run={run} pending={task.isPending} />
    </PageFrame>
  );
};
