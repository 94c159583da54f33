import { idleWarningText } from '../api/error-catalogue';

/** Shown in the last minute before the idle logout; any mouse movement clears it. */
export const IdleBanner = () => (
  <div role="alert" className="bg-amber-100 px-4 py-2 text-center text-sm font-medium text-amber-900">
    {idleWarningText}
  </div>
);
