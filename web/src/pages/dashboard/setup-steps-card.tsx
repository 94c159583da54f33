import { Badge, Card } from '@tremor/react';
import { Link } from 'react-router';
import { JobProgressList } from '../../live/job-progress-bar';
import type { RunningJob } from '../../live/running-jobs';
import type { StepName, StepState } from './setup-progress';

export type SetupStepView = {
  key: StepName | 'account' | 'registration';
  label: string;
  state: StepState;
  action?: { to: string; text: string };
  dismissible?: boolean;
};

const stateTexts: Record<StepState, { text: string; color: 'gray' | 'blue' | 'emerald' | 'amber' }> = {
  pending: { text: 'To do', color: 'amber' },
  syncing: { text: 'Syncing...', color: 'blue' },
  generating: { text: 'Generating metrics...', color: 'blue' },
  completed: { text: 'Done', color: 'emerald' },
  dismissed: { text: 'Skipped', color: 'gray' },
  disabled: { text: 'Not yet available', color: 'gray' },
};

const actionClasses =
  'rounded-md px-2 py-1 text-sm font-medium text-blue-700 hover:bg-blue-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600';

type SetupStepsCardProps = {
  title: string;
  steps: readonly SetupStepView[];
  onDismiss: (step: StepName) => void;
  /** Shown under the platform step while a sync or metrics job runs. */
  runningJobs: readonly RunningJob[];
};

/** The setup progress as an ordered list: each step's state, what to do next, and No thanks where allowed. */
export const SetupStepsCard = ({ title, steps, onDismiss, runningJobs }: SetupStepsCardProps) => {
  const done = steps.filter((step) => step.state === 'completed' || step.state === 'dismissed').length;
  return (
    <Card>
      {/* A heading (Tremor's Title is a paragraph), so screen readers can jump to the card. */}
      <h2 className="text-tremor-title font-medium text-tremor-content-strong">{title}</h2>
      <p className="mt-1 text-sm text-gray-600">
        {done} of {steps.length} steps done
      </p>
      <ol className="mt-4 divide-y divide-gray-100">
        {steps.map((step, index) => {
          const state = stateTexts[step.state];
          const open = step.state === 'pending';
          return (
            <li key={step.key} className="py-3" data-testid={`setup-step-${step.key}`}>
              <div className="flex flex-wrap items-center gap-2">
                <span className="w-6 text-sm font-semibold text-gray-500">{index + 1}.</span>
                <span className="min-w-0 flex-1 text-sm font-medium text-gray-900">{step.label}</span>
                <Badge color={state.color}>{state.text}</Badge>
                {open && step.action && (
                  <Link to={step.action.to} className={actionClasses}>
                    {step.action.text}
                  </Link>
                )}
                {open && step.dismissible && step.key !== 'account' && step.key !== 'registration' && (
                  <button
                    type="button"
                    className={actionClasses}
                    onClick={() => onDismiss(step.key as StepName)}
                    aria-label={`No thanks: ${step.label}`}
                  >
                    No thanks
                  </button>
                )}
              </div>
              {step.key === 'addPlatform' && (step.state === 'syncing' || step.state === 'generating') && (
                <div className="ml-8 mt-2">
                  <JobProgressList jobs={runningJobs} />
                </div>
              )}
            </li>
          );
        })}
      </ol>
    </Card>
  );
};
