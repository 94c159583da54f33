import { defaultSellerFeatureFlags } from '../../../domain/seller/seller';

const known = new Set(Object.keys(defaultSellerFeatureFlags));

/**
 * The flag a toggle names: the full name (`customerSheet.showOtherCredits`), or a group and its
 * section (`forecasts` + `Receivables` for forecasts.Receivables.Enabled, `exclusions` + `CustomerIds`).
 * Unknown names pass through for the decider to refuse with its field error.
 */
export const sellerFlagName = (flag: string, section: string | undefined): string => {
  if (!section) return flag;
  const joined = `${flag}.${section}`;
  if (known.has(joined)) return joined;
  if (known.has(`${joined}.Enabled`)) return `${joined}.Enabled`;
  return joined;
};
