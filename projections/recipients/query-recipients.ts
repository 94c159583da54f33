import type { Db, Filter } from 'mongodb';
import type { RecipientResponse } from '../../contracts/api/recipients';
import type { RecipientState } from '../../contracts/events/recipient';
import { currentCollection } from '../framework/read-model-versions';
import { waitUntilRead, type ReadAfter } from '../read-after';
import { containsText, hasSearch, idInSearch } from '../search-pattern';
import { sellersProjection, type SellerCollections, type SellerDoc } from '../sellers/sellers-projection';
import { usersProjection, type UserDocument } from '../users/users-projection';
import { RECIPIENTS, recipientsProjection, type RecipientDoc } from './recipients-projection';
import { isDangerState, recipientStateAction } from './recipient-state';

/**
 * A report subscription as the recipients tables show it (portal.md and admin.md section 3). A user
 * subscriber's email and names come from the users read model at query time, so they are current.
 */
export type RecipientView = RecipientResponse;

const iso = (value: Date | null) => value?.toISOString() ?? null;

const recipients = (db: Db) =>
  currentCollection<'recipients', RecipientDoc>(db, recipientsProjection, 'recipients');
const users = (db: Db) =>
  currentCollection<keyof typeof usersProjection.collections, UserDocument>(db, usersProjection, 'users');
const sellers = (db: Db) => currentCollection<SellerCollections, SellerDoc>(db, sellersProjection, 'sellers');

/** Deleted subscriptions stay for their history; no table lists or counts them. */
const notDeleted: Filter<RecipientDoc> = { deleted: false };

/** The users and sellers a page of subscriptions names, in two queries (no $lookup on FerretDB). */
const toViews = async (db: Db, docs: readonly RecipientDoc[]): Promise<RecipientView[]> => {
  const userIds = [
    ...new Set(docs.flatMap((doc) => (doc.subscriberUserId === null ? [] : [doc.subscriberUserId]))),
  ];
  const sellerIds = [...new Set(docs.map((doc) => doc.sellerId))];
  const [userDocs, sellerDocs] = await Promise.all([
    userIds.length === 0
      ? []
      : (await users(db))
          .find(
            { _id: { $in: userIds } },
            { projection: { Email: 1, GivenName: 1, FamilyName: 1, JobTitle: 1 } },
          )
          .toArray(),
    sellerIds.length === 0
      ? []
      : (await sellers(db)).find({ _id: { $in: sellerIds } }, { projection: { companyName: 1 } }).toArray(),
  ]);
  const userById = new Map(userDocs.map((user) => [user._id, user]));
  const companyBySeller = new Map(sellerDocs.map((seller) => [seller._id, seller.companyName]));
  return docs.map((doc): RecipientView => {
    const user = doc.subscriberUserId === null ? undefined : userById.get(doc.subscriberUserId);
    return {
      Id: doc._id,
      TenantId: doc.tenantId,
      SellerId: doc.sellerId,
      Seller: { Id: doc.sellerId, CompanyName: companyBySeller.get(doc.sellerId) ?? null },
      SubscriberId: doc.subscriberUserId,
      Subscriber:
        doc.subscriberUserId === null
          ? {
              Id: null,
              Email: doc.subscriberEmail,
              GivenName: doc.subscriberGivenName,
              FamilyName: doc.subscriberFamilyName,
              JobTitle: doc.subscriberJobTitle,
            }
          : {
              Id: doc.subscriberUserId,
              Email: user?.Email ?? null,
              GivenName: user?.GivenName ?? null,
              FamilyName: user?.FamilyName ?? null,
              JobTitle: user?.JobTitle ?? null,
            },
      STATE: doc.state,
      SendWeekly: doc.sendWeekly,
      SendMonthly: doc.sendMonthly,
      TrackWelcomeDate: iso(doc.trackWelcomeDate),
      TrackWeeklyDate: iso(doc.trackWeeklyDate),
      TrackMonthlyDate: iso(doc.trackMonthlyDate),
      createdAt: doc.createdAt.toISOString(),
      Danger: isDangerState(doc.state),
      StateAction: recipientStateAction(doc.state),
    };
  });
};

const requireId = (name: string, value: number) => {
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${name} must be a positive integer, got ${value}`);
};

const listWhere = async (db: Db, filter: Filter<RecipientDoc>) =>
  toViews(
    db,
    await (
      await recipients(db)
    )
      .find({ ...notDeleted, ...filter })
      .sort({ _id: 1 })
      .toArray(),
  );

/** A tenant's report recipients (the reports and team pages), oldest first. */
export const listTenantRecipients = async (
  db: Db,
  query: { tenantId: number; readAfter?: ReadAfter },
): Promise<{ recipients: RecipientView[]; stale: boolean }> => {
  requireId('tenantId', query.tenantId);
  const stale = await waitUntilRead(db, RECIPIENTS, query.readAfter);
  return { recipients: await listWhere(db, { tenantId: query.tenantId }), stale };
};

/** One seller's recipients; with `tenantId` (the portal) a seller of another tenant has none. */
export const listSellerRecipients = async (
  db: Db,
  query: { sellerId: number; tenantId?: number; readAfter?: ReadAfter },
): Promise<{ recipients: RecipientView[]; stale: boolean }> => {
  requireId('sellerId', query.sellerId);
  const stale = await waitUntilRead(db, RECIPIENTS, query.readAfter);
  const filter: Filter<RecipientDoc> = { sellerId: query.sellerId };
  if (query.tenantId !== undefined) filter.tenantId = query.tenantId;
  return { recipients: await listWhere(db, filter), stale };
};

/**
 * One of a seller's subscriptions by id (null when it is not that seller's, another tenant's or
 * deleted): one lookup by key where listing the seller's read them all (a report's send, the row
 * answered after a change).
 */
export const findSellerRecipient = async (
  db: Db,
  query: { recipientId: number; sellerId: number; tenantId: number; readAfter?: ReadAfter },
): Promise<{ recipient: RecipientView | null; stale: boolean }> => {
  requireId('recipientId', query.recipientId);
  const stale = await waitUntilRead(db, RECIPIENTS, query.readAfter);
  const doc = await (
    await recipients(db)
  ).findOne({ _id: query.recipientId, sellerId: query.sellerId, tenantId: query.tenantId, ...notDeleted });
  return { recipient: doc ? ((await toViews(db, [doc]))[0] ?? null) : null, stale };
};

/**
 * The recipients of several sellers of one tenant in one query, by seller (each oldest first, as
 * listSellerRecipients gives them): the scheduled send plans a batch of sellers at once.
 */
export const listRecipientsOfSellers = async (
  db: Db,
  query: { tenantId: number; sellerIds: readonly number[] },
): Promise<Map<number, RecipientView[]>> => {
  requireId('tenantId', query.tenantId);
  for (const sellerId of query.sellerIds) requireId('sellerId', sellerId);
  const bySeller = new Map<number, RecipientView[]>(query.sellerIds.map((sellerId) => [sellerId, []]));
  if (query.sellerIds.length === 0) return bySeller;
  const views = await listWhere(db, {
    tenantId: query.tenantId,
    sellerId: { $in: [...new Set(query.sellerIds)] },
  });
  for (const view of views) bySeller.get(view.SellerId)?.push(view);
  return bySeller;
};

export type AdminRecipientsQuery = {
  states?: readonly RecipientState[];
  tenantId?: number;
  sellerId?: number;
  /** Email or name (the contact's or the user's) or company name contains it; a number matches ids. */
  search?: string;
  readAfter?: ReadAfter;
};

const searchFilter = async (db: Db, search: string): Promise<Filter<RecipientDoc>> => {
  const pattern = containsText(search);
  const [matchingUsers, matchingSellers] = await Promise.all([
    (await users(db))
      .find({ $or: [{ Email: pattern }, { Name: pattern }] }, { projection: { _id: 1 } })
      .toArray(),
    (await sellers(db)).find({ companyName: pattern }, { projection: { _id: 1 } }).toArray(),
  ]);
  const or: Filter<RecipientDoc>[] = [
    { subscriberEmail: pattern },
    { subscriberGivenName: pattern },
    { subscriberFamilyName: pattern },
    { subscriberUserId: { $in: matchingUsers.map((user) => user._id) } },
    { sellerId: { $in: matchingSellers.map((seller) => seller._id) } },
  ];
  const id = idInSearch(search);
  if (id !== null) or.push({ _id: id }, { sellerId: id }, { subscriberUserId: id }, { tenantId: id });
  return { $or: or };
};

/** The admin recipients table (scope all): every tenant's subscriptions, newest first. */
export const listAdminRecipients = async (
  db: Db,
  query: AdminRecipientsQuery = {},
): Promise<{ rows: RecipientView[]; total: number; filtered: number; stale: boolean }> => {
  const stale = await waitUntilRead(db, RECIPIENTS, query.readAfter);
  const and: Filter<RecipientDoc>[] = [notDeleted];
  if (query.states && query.states.length > 0) and.push({ state: { $in: [...query.states] } });
  if (query.tenantId !== undefined) and.push({ tenantId: query.tenantId });
  if (query.sellerId !== undefined) and.push({ sellerId: query.sellerId });
  if (hasSearch(query.search)) and.push(await searchFilter(db, query.search));
  const collection = await recipients(db);
  const filter: Filter<RecipientDoc> = { $and: and };
  const [docs, total, filtered] = await Promise.all([
    collection.find(filter).sort({ _id: -1 }).toArray(),
    collection.countDocuments(notDeleted),
    collection.countDocuments(filter),
  ]);
  return { rows: await toViews(db, docs), total, filtered, stale };
};

/**
 * Recipients per tenant (clients page, stats). By default the subscriptions that receive reports
 * (ACTIVE and ADMIN); tenants without any are absent from the map.
 */
export const countRecipientsByTenant = async (
  db: Db,
  tenantIds?: readonly number[],
  states: readonly RecipientState[] = ['ACTIVE', 'ADMIN'],
): Promise<Map<number, number>> => {
  const match: Filter<RecipientDoc> = { ...notDeleted, state: { $in: [...states] } };
  if (tenantIds) match.tenantId = { $in: [...tenantIds] };
  const groups = await (
    await recipients(db)
  )
    .aggregate<{ _id: number; count: number }>([
      { $match: match },
      { $group: { _id: '$tenantId', count: { $sum: 1 } } },
    ])
    .toArray();
  return new Map(groups.map((group) => [group._id, group.count]));
};
