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

type BadgeLook = { color: 'gray' | 'blue' | 'emerald' | 'amber'; textClass: string };

// Tremor's badge text (the 600 shade on a 10% tint) falls short of WCAG AA's 4.5:1 at this size;
// the 800 shade meets it (axe-core's color-contrast rule in the browser journeys).
const looks = {
  amber: { color: 'amber', textClass: 'text-amber-800' },
  blue: { color: 'blue', textClass: 'text-blue-800' },
  emerald: { color: 'emerald', textClass: 'text-emerald-800' },
  gray: { color: 'gray', textClass: 'text-gray-700' },
} satisfies Record<string, BadgeLook>;

const stateTexts: Record<StepState, { text: string; look: BadgeLook }> = {
  pending: { text: 'To do', look: looks.amber },
  syncing: { text: 'Syncing...', look: looks.blue },
  generating: { text: 'Generating metrics...', look: looks.blue },
  completed: { text: 'Done', look: looks.emerald },
  dismissed: { text: 'Skipped', look: looks.gray },
  disabled: { text: 'Not yet available', look: looks.gray },
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
                <Badge color={state.look.color} className={state.look.textClass}>
                  {state.text}
                </Badge>
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
