import type { FastifyReply } from 'fastify';
import { AppError } from '../../../contracts/errors';
import { integrationDecider } from '../../../domain/integration/integration-decider';
import { listTenantIntegrations } from '../../../projections/integrations/query-integrations';
import { allocateIdFor, executeCommand } from '../../execute-command';
import { checkConnectorUrl, type ResolveHost } from '../../../workflows/connectors/connector-url';
import { requireCaller } from '../../plugins/access';
import { credentialVaultOf } from '../platforms/credential-vault-of';
import { forgetCredentials } from '../platforms/forget-credentials';
import { featureOf, planAllows } from '../platforms/plan-features';
import { tenantFacts } from '../platforms/tenant-facts';
import { integrationStream } from '../../../contracts/stream-ids';
import { actsAsCompanyAdmin } from '../../../domain/actor';
import { checkActiveCampaignConnect } from '../../../workflows/integrations/active-campaign/active-campaign-connect-check';

/**
 * Field errors under the body's own names (Credentials.URL, Credentials.ApiKey). The URL is one the
 * server will call, so it must be https and public (server-side request forgery, ADR 26).
 */
const checkCredentials = async (
  input: { url: string; apiKey: string },
  resolveHost: ResolveHost | undefined,
) => {
  const properties: Record<string, string> = {};
  if (!input.url) properties['Credentials.URL'] = 'The URL is required.';
  else {
    const verdict = await checkConnectorUrl(input.url, resolveHost);
    if (!verdict.ok) properties['Credentials.URL'] = verdict.reason;
  }
  if (!input.apiKey) properties['Credentials.ApiKey'] = 'The API key is required.';
  if (Object.keys(properties).length > 0)
    throw new AppError('validation', 'The connection details are not valid.', { properties });
};

/**
 * Connects the tenant's ActiveCampaign account, or renews the key of the one it has (the card shows a
 * connected view once an account exists). The API key is sealed in the vault; events carry its
 * reference, and the previous key is dropped once the new one is in use.
 */
export const connectActiveCampaign = async (
  reply: FastifyReply,
  input: { tenantId: number; url: string; apiKey: string },
): Promise<{ integrationId: number; position: number }> => {
  const { request } = reply;
  const { services } = request.server;
  const caller = requireCaller(request);
  const now = services.now();
  const tenant = await tenantFacts(services.db, input.tenantId);
  // Checked before anything is stored: the demo tenant's inputs are disabled (portal.md section 5).
  if (tenant.isDemo && !caller.isPlatformAdmin)
    throw new AppError('forbidden', 'Disabled for the demo client');
  await checkCredentials(input, services.resolveHost);
  const [{ integrations }, allowed] = await Promise.all([
    listTenantIntegrations(services.db, { tenantId: input.tenantId, readAfter: request.readAfter }),
    planAllows(services.db, { tenantId: input.tenantId, feature: featureOf('ACTIVE_CAMPAIGN'), now }),
  ]);
  const existing = integrations.find((account) => account.Provider === 'ACTIVE_CAMPAIGN');
  // The URL and key are tried for real before they are stored (ADR 48); a caller the decider will
  // refuse (plan, role) is refused by it as before, without a call on their behalf.
  if (allowed && actsAsCompanyAdmin(caller.actor))
    await checkActiveCampaignConnect(services.config, input, { resolveHost: services.resolveHost });
  const vault = credentialVaultOf(services);
  const credentialsRef = await vault.store({
    tenantId: input.tenantId,
    kind: 'active_campaign',
    secret: { apiKey: input.apiKey },
  });
  try {
    const integrationId = existing?.Id ?? (await allocateIdFor(reply, 'integration'));
    const streamId = integrationStream(integrationId);
    const result = await executeCommand(reply, integrationDecider, {
      streamId,
      tenantId: input.tenantId,
      command: {
        type: 'ConnectIntegration',
        data: {
          integrationId,
          tenantId: input.tenantId,
          provider: 'ACTIVE_CAMPAIGN',
          productIdentifier: null,
          authMethod: 'api_key',
          credentialsRef,
          credentialsOwner: null,
          url: input.url,
          actor: caller.actor,
          tenantIsDemo: tenant.isDemo,
          planAllowsProvider: allowed,
        },
        now,
      },
    });
    const appended = result.events[0];
    const usedRef = appended && 'credentialsRef' in appended.data ? appended.data.credentialsRef : null;
    await forgetCredentials(request, { streamId, keep: usedRef });
    if (usedRef !== credentialsRef) await vault.remove(credentialsRef);
    return { integrationId, position: result.position };
  } catch (error) {
    await vault.remove(credentialsRef);
    throw error;
  }
};
