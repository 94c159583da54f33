import type { Db, Filter } from 'mongodb';
import type { z } from 'zod';
import type {
  UserListRow as UserListRowSchema,
  UserTenant as UserTenantSchema,
  UserWithTenants,
} from '../../contracts/api/users';
import { tenantsCollection } from '../tenants/tenant-view';
import { TENANTS } from '../tenants/tenants-projection';
import { containsText, idInSearch } from '../search-pattern';
import { waitForReadModels, type Consistency } from '../wait-for-read-models';
import { readWhileQuiet } from '../framework/read-store-change';
import { membershipsCollection } from './membership-counts';
import { toMembershipView } from './query-team';
import { toUserView, usersCollection } from './user-view';
import { USERS, type UserDocument } from './users-projection';

export const USERS_DEFAULT_PAGE_SIZE = 100;
const USERS_MAX_PAGE_SIZE = 1000;

export type UserSortField = 'Id' | 'Name' | 'Email' | 'createdAt' | 'LastLogin' | 'Logins';

export type UserListQuery = Consistency & {
  /** A user id, or part of a name or email address (case-insensitive). */
  search?: string;
  sort?: { field: UserSortField; direction: 'asc' | 'desc' };
  /** 1-based. */
  page?: number;
  pageSize?: number;
};

/** A row of the admin users table: the API's row. */
export type UserListRow = z.infer<typeof UserListRowSchema>;

/** An empty `rows` is the table's "No Users Found". */
export type UserListPage = {
  rows: UserListRow[];
  total: number;
  page: number;
  pageSize: number;
  stale: boolean;
};

const sortFields: Record<UserSortField, keyof UserDocument> = {
  Id: '_id',
  Name: 'sortName',
  Email: 'Email',
  createdAt: 'createdAt',
  LastLogin: 'LastLogin',
  Logins: 'Logins',
};

const searchFilter = (search: string): Filter<UserDocument> => {
  const pattern = containsText(search);
  const clauses: Filter<UserDocument>[] = [{ Name: pattern }, { Email: pattern }];
  const id = idInSearch(search);
  if (id !== null) clauses.push({ _id: id });
  return { $or: clauses };
};

/** The admin users table (GET /api/users?scope=all): every user who is not deleted, across tenants. */
export const queryUserList = async (db: Db, query: UserListQuery = {}): Promise<UserListPage> => {
  const stale = await waitForReadModels(db, [USERS], query);
  const users = await usersCollection(db);
  const search = (query.search ?? '').trim();
  const filter: Filter<UserDocument> =
    search === '' ? { deleted: false } : { $and: [{ deleted: false }, searchFilter(search)] };
  const pageSize = Math.max(
    1,
    Math.min(USERS_MAX_PAGE_SIZE, Math.trunc(query.pageSize ?? USERS_DEFAULT_PAGE_SIZE)),
  );
  const page = Math.max(1, Math.trunc(query.page ?? 1));
  const field = sortFields[query.sort?.field ?? 'Name'];
  const direction = query.sort?.direction === 'desc' ? -1 : 1;
  const skip = (page - 1) * pageSize;
  const docs = await users
    .find(filter)
    .sort(field === '_id' ? { _id: direction } : { [field]: direction, _id: 1 })
    .skip(skip)
    .limit(pageSize)
    .toArray();
  // A short page that is not past the end is the last one: the matches are counted without a count
  // (a search's count reads every match again, docs/adr/0051-admin-table-counts-and-search.md).
  const total =
    docs.length < pageSize && (docs.length > 0 || skip === 0)
      ? skip + docs.length
      : await users.countDocuments(filter);
  const counts = await tenantCounts(
    db,
    docs.map((doc) => doc._id),
  );
  const rows = docs.map((doc) => ({ ...toUserView(doc), TenantCount: counts.get(doc._id) ?? 0 }));
  return { rows, total, page, pageSize, stale };
};

const tenantCounts = async (db: Db, userIds: readonly number[]): Promise<Map<number, number>> => {
  if (userIds.length === 0) return new Map();
  const rows = await (
    await membershipsCollection(db)
  )
    .aggregate<{ _id: number; count: number }>([
      { $match: { userId: { $in: [...userIds] } } },
      { $group: { _id: '$userId', count: { $sum: 1 } } },
    ])
    .toArray();
  return new Map(rows.map((row) => [row._id, row.count]));
};

/**
 * One of a user's tenants, as the admin users table's expandable row lists it (the API's UserTenant).
 * Disabled tenants are listed too, so an admin sees every link.
 */
export type UserTenant = z.infer<typeof UserTenantSchema>;

/** A user with all their tenants, by tenant name; null when there is no such user. */
export const queryUserWithTenants = async (
  db: Db,
  query: Consistency & { userId: number },
): Promise<{ user: UserWithTenants | null; stale: boolean }> => {
  const stale = await waitForReadModels(db, [USERS, TENANTS], query);
  // Requests woken by one projector batch (a user's edits answered with the user) read it once
  // between them while nothing is written meanwhile (ADR 54); the answer is not changed by callers.
  const user = await readWhileQuiet(db, `users/with-tenants/${query.userId}`, () =>
    readUserWithTenants(db, query.userId),
  );
  return { user, stale };
};

const readUserWithTenants = async (db: Db, userId: number): Promise<UserWithTenants | null> => {
  const user = await (await usersCollection(db)).findOne({ _id: userId });
  if (!user) return null;
  const memberships = await (await membershipsCollection(db)).find({ userId }).toArray();
  const byTenant = new Map(memberships.map((m) => [m.tenantId, m]));
  const tenants =
    byTenant.size === 0
      ? []
      : await (
          await tenantsCollection(db)
        )
          .find({ _id: { $in: [...byTenant.keys()] }, status: { $ne: 'purged' } })
          .sort({ sortName: 1, _id: 1 })
          .toArray();
  const Tenants = tenants.flatMap((tenant): UserTenant[] => {
    const membership = byTenant.get(tenant._id);
    if (!membership) return [];
    return [
      {
        Id: tenant._id,
        Name: tenant.Name,
        Classification: tenant.Classification,
        UsageType: tenant.UsageType,
        disabled: tenant.status === 'disabled',
        Membership: toMembershipView(membership),
      },
    ];
  });
  return { ...toUserView(user), Tenants };
};
