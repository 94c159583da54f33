import { useState } from 'react';
import { dismissedOf, type StepName } from './setup-progress';
import { useSavedSetupSteps } from './dashboard-progress-store';

/** The dismissed steps: those saved for this tenant and those dismissed on this page just now. */
export const useSetupDismissals = (tenantId: number) => {
  const saved = useSavedSetupSteps(tenantId);
  const [now, setNow] = useState<ReadonlySet<StepName>>(new Set());
  const dismissed = new Set([...dismissedOf(saved.steps), ...now]);
  const dismiss = (step: StepName) => setNow((current) => new Set([...current, step]));
  return { dismissed, dismiss, loaded: saved.loaded };
};
