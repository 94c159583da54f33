import { useEffect, useRef } from 'react';
import { useBrowserState, useSaveBrowserState } from '../../api/queries/browser-state';
import type { SetupSteps, StepName, StepState } from './setup-progress';

/** portal.md section 4: the setup steps are kept per tenant in browser storage and as browser state. */
export const dashboardProgressKey = 'dashboard-progress';
const stepNames: readonly StepName[] = [
  'firstReport',
  'recipient',
  'inviteUser',
  'addClient',
  'addPlatform',
  'subscriptionPayment',
];
const stepStates: readonly StepState[] = [
  'pending',
  'syncing',
  'generating',
  'completed',
  'dismissed',
  'disabled',
];

const storageKeyOf = (tenantId: number) => `ledgerwise:${dashboardProgressKey}:${tenantId}`;

/** Only known steps and states survive, whatever an old version of the app saved. */
export const setupStepsOf = (value: unknown): SetupSteps | null => {
  if (typeof value !== 'object' || value === null) return null;
  const steps: SetupSteps = {};
  for (const [name, state] of Object.entries(value)) {
    if (stepNames.includes(name as StepName) && stepStates.includes(state as StepState))
      steps[name as StepName] = state as StepState;
  }
  return steps;
};

const readLocal = (tenantId: number): SetupSteps | null => {
  try {
    const raw = window.localStorage.getItem(storageKeyOf(tenantId));
    return raw === null ? null : setupStepsOf(JSON.parse(raw));
  } catch {
    return null;
  }
};

const writeLocal = (tenantId: number, steps: SetupSteps) => {
  try {
    window.localStorage.setItem(storageKeyOf(tenantId), JSON.stringify(steps));
  } catch {
    // Storage full or disabled: the server copy still keeps them.
  }
};

/**
 * The saved steps of this tenant: browser storage at once, the server's copy (another device) once
 * read, the two merged so a dismissal made anywhere stays.
 */
export const useSavedSetupSteps = (tenantId: number) => {
  const query = useBrowserState(dashboardProgressKey);
  const local = readLocal(tenantId);
  const server = setupStepsOf(query.data?.value ?? null);
  if (!local && !server) return { steps: null, loaded: !query.isPending };
  return { steps: { ...server, ...local, ...mergeDismissals(server, local) }, loaded: !query.isPending };
};

const mergeDismissals = (a: SetupSteps | null, b: SetupSteps | null): SetupSteps => {
  const merged: SetupSteps = {};
  for (const steps of [a, b])
    for (const [name, state] of Object.entries(steps ?? {}))
      if (state === 'dismissed') merged[name as StepName] = 'dismissed';
  return merged;
};

/** Saves the steps whenever they change: in browser storage, and as browser state on the server. */
export const useSaveSetupSteps = (input: { tenantId: number; steps: SetupSteps; ready: boolean }) => {
  const { mutate: save } = useSaveBrowserState(dashboardProgressKey);
  const lastSaved = useRef<string | null>(null);
  const json = JSON.stringify(input.steps);
  useEffect(() => {
    if (!input.ready) return;
    const saved = readLocal(input.tenantId);
    if (lastSaved.current === json || (lastSaved.current === null && JSON.stringify(saved) === json)) {
      lastSaved.current = json;
      return;
    }
    lastSaved.current = json;
    writeLocal(input.tenantId, JSON.parse(json) as SetupSteps);
    // A failed save is not the user's concern: browser storage still has the steps.
    save(JSON.parse(json) as SetupSteps);
  }, [save, input.tenantId, input.ready, json]);
};
