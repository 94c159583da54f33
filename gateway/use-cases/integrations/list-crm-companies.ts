import type { Db, Filter } from 'mongodb';
import type {
  IntegrationCompaniesQuery,
  IntegrationCompaniesResponse,
  IntegrationCompanyRow,
} from '../../../contracts/api/integrations';
import { currentCollection } from '../../../projections/framework/read-model-versions';
import {
  crmCompanyLinksProjection,
  type CrmCompanyLinkDoc,
} from '../../../projections/integrations/crm-company-links-projection';
import { containsText, hasSearch } from '../../../projections/search-pattern';
import {
  countMirror,
  crmMirrorCollections,
  type CrmMirrorDoc,
} from '../../../workflows/integrations/crm/crm-mirror';
import { ledgerCollections, type LedgerDoc } from '../../../workflows/ledger/ledger-collections';

const DEFAULT_LIMIT = 50;

/**
 * The matched companies page (docs/adr/0045-crm-sync.md): the mirror's companies of one integration
 * by name, each with the customers the recorded links tie to it. A filter on links first reads the
 * integration's links (one row per linked customer, by index) and keeps the companies they name.
 */
export const listCrmCompanies = async (
  db: Db,
  query: IntegrationCompaniesQuery & { integrationId: number },
): Promise<IntegrationCompaniesResponse> => {
  const { integrationId } = query;
  const links = await currentCollection<'links', CrmCompanyLinkDoc>(db, crmCompanyLinksProjection, 'links');
  const companies = db.collection<CrmMirrorDoc<'companies'>>(crmMirrorCollections.companies);
  const filter: Filter<CrmMirrorDoc<'companies'>> = { integrationId };
  const linkFilter = query.method ? 'matched' : (query.filter ?? 'all');
  if (linkFilter !== 'all') {
    const linked = await links
      .find(
        { integrationId, ...(query.method ? { method: query.method } : {}) },
        { projection: { crmId: 1 } },
      )
      .toArray();
    const ids = [...new Set(linked.map((link) => link.crmId))];
    filter.crmId = linkFilter === 'matched' ? { $in: ids } : { $nin: ids };
  }
  if (hasSearch(query.search)) filter.name = containsText(query.search);
  const [mirror, allLinks, filtered, page] = await Promise.all([
    countMirror(db, integrationId),
    links.find({ integrationId }, { projection: { crmId: 1 } }).toArray(),
    companies.countDocuments(filter),
    companies
      .find(filter)
      .sort({ name: 1, _id: 1 })
      .skip(query.offset ?? 0)
      .limit(query.limit ?? DEFAULT_LIMIT)
      .toArray(),
  ]);
  const pageLinks = await links
    .find({ integrationId, crmId: { $in: page.map((company) => company.crmId) } })
    .sort({ sellerId: 1, customerId: 1 })
    .toArray();
  const customerNames = new Map<string, string>();
  if (pageLinks.length > 0) {
    const customers = await db
      .collection<LedgerDoc<'customers'>>(ledgerCollections.customers)
      .find(
        {
          sellerId: { $in: [...new Set(pageLinks.map((link) => link.sellerId))] },
          customerId: { $in: pageLinks.map((link) => Number(link.customerId)).filter(Number.isSafeInteger) },
        },
        { projection: { sellerId: 1, customerId: 1, name: 1 } },
      )
      .toArray();
    for (const customer of customers)
      customerNames.set(`${customer.sellerId}:${customer.customerId}`, customer.name);
  }
  const rows = page.map((company): IntegrationCompanyRow => ({
    CrmId: company.crmId,
    Name: company.name,
    AccountingId: company.accountingId,
    Domain: company.domain,
    OwnerCrmId: company.ownerCrmId,
    Links: pageLinks
      .filter((link) => link.crmId === company.crmId)
      .map((link) => ({
        SellerId: link.sellerId,
        CustomerId: link.customerId,
        CustomerName: customerNames.get(`${link.sellerId}:${link.customerId}`) ?? null,
        Method: link.method,
      })),
  }));
  return {
    rows,
    total: mirror.companies,
    filtered,
    Summary: {
      Companies: mirror.companies,
      Contacts: mirror.contacts,
      Owners: mirror.owners,
      MatchedCompanies: new Set(allLinks.map((link) => link.crmId)).size,
      LinkedCustomers: allLinks.length,
    },
  };
};
