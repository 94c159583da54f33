import type { SignInProvider } from '../../../contracts/api/oidc';

const names: Record<SignInProvider, string> = { google: 'Google', microsoft: 'Microsoft' };

/** Google and Microsoft sign-in: full-page redirects to the API, which returns to the app signed in. */
export const ProviderButtons = ({
  verb,
  hrefOf,
}: {
  verb: string;
  hrefOf: (provider: SignInProvider) => string;
}) => (
  <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
    {(['google', 'microsoft'] as const).map((provider) => (
      <a
        key={provider}
        href={hrefOf(provider)}
        className="flex items-center justify-center rounded-md border border-gray-300 bg-white px-3 py-2 text-sm font-medium text-gray-800 shadow-sm hover:bg-gray-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
      >
        {verb} with {names[provider]}
      </a>
    ))}
  </div>
);
