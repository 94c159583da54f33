import { billingEventVersions } from '../contracts/events/billing';
import { integrationEventVersions } from '../contracts/events/integration';
import { inviteEventVersions } from '../contracts/events/invite';
import { jobEventVersions } from '../contracts/events/job';
import { partnerEventVersions } from '../contracts/events/partner';
import { planEventVersions } from '../contracts/events/plan';
import { recipientEventVersions } from '../contracts/events/recipient';
import { sellerEventVersions } from '../contracts/events/seller';
import { tenantEventVersions } from '../contracts/events/tenant';
import { userEventVersions } from '../contracts/events/user';
import { eventRegistry } from './event-registry';
import { replayableCategories } from './stream-history';

// Every aggregate's events must be appendable: an event type missing here fails its commands at run time.
const everyAggregate = {
  tenant: tenantEventVersions,
  user: userEventVersions,
  invite: inviteEventVersions,
  seller: sellerEventVersions,
  integration: integrationEventVersions,
  recipient: recipientEventVersions,
  billing: billingEventVersions,
  partner: partnerEventVersions,
  plan: planEventVersions,
  job: jobEventVersions,
};

describe('event registry coverage', () => {
  it.each(Object.entries(everyAggregate))(
    'registers every %s event at its current version',
    (_aggregate, versions) => {
      for (const [type, version] of Object.entries(versions)) {
        expect({ type, version: eventRegistry.definitionOf(type)?.schemaVersion }).toEqual({ type, version });
      }
    },
  );

  it('can replay the history of every aggregate it registers', () => {
    expect([...replayableCategories].sort()).toEqual(Object.keys(everyAggregate).sort());
  });
});
