import type { Tenant } from '../../../../contracts/api/tenants';
import { tenantFixture as sharedTenantFixture } from '../../test-support/tenant-fixtures';

/** GET /api/tenants/{id} of the session fixture's company (Acme Ltd, 7), with no industry chosen yet. */
export const tenantFixture = (overrides: Partial<Tenant> = {}): Tenant =>
  sharedTenantFixture({ Industry: null, ...overrides });
