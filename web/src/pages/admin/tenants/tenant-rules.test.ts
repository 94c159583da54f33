import { initialTenantsView, isNarrowed, tenantsQueryOf } from '../../../api/queries/admin-tenants';
import { isConfirmed, rowsNotice, tablePaging, tenantRowActions, withHttp } from './tenant-rules';

describe('the admin tenants table rules (admin.md sections 2, 5 and 9)', () => {
  it('pages 20 at a time only while nothing is searched, filtered or sorted', () => {
    expect(tablePaging({ rows: 20, total: 43, paged: true })).toEqual({ rowCount: 43, pageSize: 20 });
    // Every match on one page: the pagination hides.
    expect(tablePaging({ rows: 7, total: 7, paged: false })).toEqual({ rowCount: 7, pageSize: 7 });
    expect(tablePaging({ rows: 0, total: 0, paged: false })).toEqual({ rowCount: 0, pageSize: 1 });
  });

  it('asks the server for a page number only while the list is not narrowed', () => {
    expect(tenantsQueryOf({ ...initialTenantsView, pageIndex: 2 })).toMatchObject({ scope: 'all', page: 3 });
    const sorted = {
      ...initialTenantsView,
      pageIndex: 2,
      sort: { field: 'Name', direction: 'desc' } as const,
    };
    expect(isNarrowed(sorted)).toBe(true);
    expect(tenantsQueryOf(sorted)).toMatchObject({ sort: 'Name', direction: 'desc', page: undefined });
    expect(tenantsQueryOf({ ...initialTenantsView, search: '  ' }).search).toBeUndefined();
    expect(tenantsQueryOf({ ...initialTenantsView, hasUsers: false }).hasUsers).toBe('false');
  });

  it('says when the server stopped short of every match', () => {
    expect(rowsNotice({ shown: 500, total: 1200, paged: false })).toBe(
      'Showing the first 500 of 1200 matching tenants. Narrow the search or filters to see the rest.',
    );
    expect(rowsNotice({ shown: 12, total: 12, paged: false })).toBeNull();
    expect(rowsNotice({ shown: 20, total: 43, paged: true })).toBeNull();
  });

  it('takes a typed word only when it is exactly the word', () => {
    expect(isConfirmed(' disable ', 'disable')).toBe(true);
    expect(isConfirmed('Disable', 'disable')).toBe(false);
    expect(isConfirmed('disabl', 'disable')).toBe(false);
  });

  it('never offers Disable on an INTERNAL tenant; Restore and Purge only on disabled ones', () => {
    expect(tenantRowActions({ status: 'active', UsageType: 'INTERNAL' })).toMatchObject({
      disable: false,
      restore: false,
      purge: false,
    });
    expect(tenantRowActions({ status: 'active', UsageType: 'TEST' }).disable).toBe(true);
    expect(tenantRowActions({ status: 'disabled', UsageType: 'NORMAL' })).toEqual({
      disable: false,
      restore: true,
      purge: true,
      switchTo: false,
    });
  });

  it('adds http:// to a landing page without it', () => {
    expect(withHttp('example.com/start')).toBe('http://example.com/start');
    expect(withHttp('https://example.com')).toBe('https://example.com');
  });
});
