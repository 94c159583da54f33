import type { Db } from 'mongodb';
import { AppError } from '../../../contracts/errors';
import { tenantSummaries } from '../../../projections/tenant-lookup';

/** The tenant facts a connection command needs: it exists, and whether it is the demo tenant. */
export const tenantFacts = async (db: Db, tenantId: number): Promise<{ isDemo: boolean; name: string }> => {
  const tenant = (await tenantSummaries(db, [tenantId])).get(tenantId);
  if (!tenant) throw new AppError('not_found', 'Not Found', { message: `tenant ${tenantId} not found` });
  return { isDemo: tenant.UsageType === 'DEMO', name: tenant.Name };
};
