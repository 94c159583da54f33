import { useRouteError } from 'react-router';
import { errorCatalogue } from '../api/error-catalogue';

/**
 * Browsers word a failed `import()` differently: Chrome "Failed to fetch dynamically imported module",
 * Firefox "error loading dynamically imported module", Safari "Importing a module script failed".
 */
const chunkLoadFailure = /dynamically imported module|importing a module script failed/i;

/** Whether a page's chunk could not be loaded: offline, or the app was deployed again since this tab opened. */
export const isChunkLoadFailure = (error: unknown): boolean =>
  error instanceof Error && chunkLoadFailure.test(error.message);

/**
 * What a route shows instead of crashing the tab: a page whose code could not be fetched is the
 * catalogue's connection failure, anything else its internal failure; a reload fetches the current app.
 */
export const RouteErrorPage = () => {
  const error = useRouteError();
  return (
    <div role="alert" className="mx-auto max-w-xl space-y-4 p-6">
      <p className="text-sm text-gray-900">
        {isChunkLoadFailure(error) ? errorCatalogue.failedFetch : errorCatalogue.internal}
      </p>
      <button
        type="button"
        onClick={() => window.location.reload()}
        className="rounded-tremor-default bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
      >
        Reload
      </button>
    </div>
  );
};
