import { sellerStream } from '../../../contracts/stream-ids';
import { sellerDecider } from '../../../domain/seller/seller-decider';
import type { Cast, RouteExample } from './types';

let nextSellerId = 896_000; // a range of its own: recipients.ts counts from 890,000

/** A fresh QuickBooks Desktop seller of tenant A, as POST /api/qbd/config leaves it (a system fixture). */
const qbdSellerOfA = async (cast: Cast): Promise<number> => {
  const sellerId = (nextSellerId += 1);
  await cast.world.run(sellerDecider, sellerStream(sellerId), {
    type: 'ConnectSeller',
    data: {
      sellerId,
      tenantId: cast.a.tenantId,
      provider: 'QBD',
      companyName: null,
      url: null,
      authMethod: 'web_connector',
      authTokenOwner: null,
      credentialsRef: `example-qbd-${sellerId}`,
      companyFilePath: null,
      actor: { userId: null, isPlatformAdmin: true, tenantRole: null, isAdvisor: false },
      tenantIsDemo: false,
      tenantHasConnectedSeller: false,
      planAllowsProvider: true,
    },
    now: cast.world.clock.now(),
  });
  await cast.world.settle();
  return sellerId;
};

const capturedCustomers =
  '<?xml version="1.0" ?><QBXML><QBXMLMsgsRs><CustomerQueryRs requestID="1" statusCode="0" ' +
  'statusSeverity="Info" statusMessage="Status OK"><CustomerRet><ListID>80000001-1700000001</ListID>' +
  '<TimeCreated>2025-06-01T10:00:00+00:00</TimeCreated><Name>Example Customer</Name></CustomerRet>' +
  '</CustomerQueryRs></QBXMLMsgsRs></QBXML>';

/** The admin QuickBooks Desktop tools (admin.md sections 2 and 7); the SOAP service is tested elsewhere. */
export const examples: RouteExample[] = [
  {
    method: 'POST',
    route: '/api/qbd/session',
    access: 'platformAdmin',
    happy: async (cast) => ({ url: '/api/qbd/session', body: { sellerId: await qbdSellerOfA(cast) } }),
    badInput: () => Promise.resolve({ url: '/api/qbd/session', body: { sellerId: 'first' } }),
  },
  {
    method: 'POST',
    route: '/api/qbd/capture',
    access: 'platformAdmin',
    happy: async (cast) => ({
      url: '/api/qbd/capture',
      body: { sellerId: await qbdSellerOfA(cast), xml: capturedCustomers },
    }),
    badInput: () => Promise.resolve({ url: '/api/qbd/capture', body: { sellerId: 1, xml: '' } }),
  },
  {
    method: 'GET',
    route: '/api/qbd/logs/:id',
    access: 'platformAdmin',
    happy: async (cast) => ({ url: `/api/qbd/logs/${await qbdSellerOfA(cast)}?limit=1000` }),
    badInput: () => Promise.resolve({ url: '/api/qbd/logs/1?limit=5000' }),
  },
];
