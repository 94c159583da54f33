import { Text } from '@tremor/react';
import { Link } from 'react-router';

export const inlineLinkClasses =
  'font-medium text-blue-700 underline underline-offset-2 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600';

/** Why a forecast is missing and what brings one: the seller's flag, or a sync to complete. */
export const ForecastMissing = ({ enabled, what }: { enabled: boolean; what: string }) =>
  enabled ? (
    <Text className="mt-3">
      No {what} yet: one is issued after every completed sync.{' '}
      <Link to="/platforms" className={inlineLinkClasses}>
        Run a sync from Platforms
      </Link>{' '}
      to get the first.
    </Text>
  ) : (
    <Text className="mt-3">
      Forecasting is turned off for this seller. A platform administrator turns it on from the admin Sellers
      page (Toggle forecasting), and the next sync issues the first {what}.
    </Text>
  );
