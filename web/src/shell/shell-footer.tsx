export const privacyPolicyUrl = 'https://ledgerwise.example/privacy-policy';
export const serviceAgreementUrl = 'https://ledgerwise.example/service-agreement';

export const ShellFooter = () => (
  <footer className="flex flex-wrap gap-4 border-t border-gray-200 px-6 py-3 text-xs text-gray-600">
    <a
      href={privacyPolicyUrl}
      className="hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600"
    >
      Privacy Policy
    </a>
    <a
      href={serviceAgreementUrl}
      className="hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600"
    >
      Service Agreement
    </a>
  </footer>
);
