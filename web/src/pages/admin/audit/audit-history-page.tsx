import { Card, Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@tremor/react';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import type { AuditEntry } from '../../../../../contracts/api/audit';
import { auditRowLimit, useAuditHistory } from '../../../api/queries/admin-audit';
import { adminTenantQueries } from '../../../api/queries/admin-tenants';
import { useAppServices } from '../../../session/app-services-context';
import { ErrorCallout } from '../../../components/error-callout';
import { TextLink } from '../../../components/text-link';
import { useSession } from '../../../session/session-query';
import { factsOf } from '../../../session/session-facts';
import { tableTexts } from '../../../table/empty-texts';
import { PageFrame } from '../../dashboard/stat-card';
import { tenantIdOfParam } from '../tenants/admin-tenant-edit-page';
import { auditTimeText, bodyText, isWarningRow, noHistoryText } from './audit-rules';
import { StreamReplay } from './stream-replay';

const headers = ['UserId', 'User', 'Action', 'Asset', 'AssetId', 'Time'] as const;

const RequestDetails = ({ entry }: { entry: AuditEntry }) => {
  const body = bodyText(entry.Request.body);
  return (
    <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-2">
      {[
        ['Request id', entry.Request.id],
        ['IP', entry.Request.IP],
        ['URL', entry.Request.URL],
        ['Method', entry.Request.method],
        ['Event', entry.Type],
      ].map(([term, value]) => (
        <div key={term} className="flex gap-2">
          <dt className="font-medium text-gray-700">{term}:</dt>
          <dd className="break-all text-gray-900">{value ?? 'None'}</dd>
        </div>
      ))}
      <div className="sm:col-span-2">
        <dt className="font-medium text-gray-700">Body:</dt>
        <dd>
          {body === null ? (
            'None'
          ) : (
            <pre
              tabIndex={0}
              aria-label="Request body"
              className="max-h-64 overflow-auto focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600 whitespace-pre-wrap break-all rounded bg-white p-2 text-xs text-gray-900"
            >
              {body}
            </pre>
          )}
        </dd>
      </div>
    </dl>
  );
};

/** The audit rows, newest first, each expandable into its request; DELETE rows in amber. */
export const AuditTable = ({ rows }: { rows: readonly AuditEntry[] | undefined }) => {
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const columnCount = headers.length + 1;
  return (
    <div className="max-h-[1000px] overflow-auto rounded-tremor-default border border-gray-200 bg-white">
      <Table aria-label="Audit history">
        <TableHead>
          <TableRow>
            <TableHeaderCell className="w-10">
              <span className="sr-only">Details</span>
            </TableHeaderCell>
            {headers.map((header) => (
              <TableHeaderCell key={header} className="px-2 sm:px-4">
                {header}
              </TableHeaderCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {!rows || rows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={columnCount} className="text-center">
                <span role="status">{rows ? noHistoryText : tableTexts.loading}</span>
              </TableCell>
            </TableRow>
          ) : (
            rows.map((entry) => {
              const warning = isWarningRow(entry);
              const isOpen = open.has(entry.Id);
              return (
                <Fragment key={entry.Id}>
                  <TableRow
                    className={warning ? 'bg-amber-50' : undefined}
                    data-warning={warning || undefined}
                  >
                    <TableCell className="w-10">
                      <button
                        type="button"
                        aria-expanded={isOpen}
                        aria-label={`Request details of ${entry.Action} ${entry.Asset} ${entry.AssetId}`}
                        onClick={() => toggle(entry.Id)}
                        className="rounded px-1 text-gray-700 focus-visible:outline focus-visible:outline-2 focus-visible:outline-blue-600"
                      >
                        <span aria-hidden="true">{isOpen ? '▾' : '▸'}</span>
                      </button>
                    </TableCell>
                    <TableCell className="px-2 sm:px-4">{entry.UserId ?? ''}</TableCell>
                    <TableCell className="whitespace-normal px-2 sm:px-4">
                      {entry.User?.Email ?? (entry.UserId === null ? 'System' : '')}
                    </TableCell>
                    <TableCell className={`px-2 sm:px-4 ${warning ? 'font-semibold text-amber-900' : ''}`}>
                      {entry.Action}
                    </TableCell>
                    <TableCell className="px-2 sm:px-4">{entry.Asset}</TableCell>
                    <TableCell className="whitespace-normal break-all px-2 sm:px-4">
                      {entry.AssetId}
                    </TableCell>
                    <TableCell className="px-2 sm:px-4">{auditTimeText(entry.createdAt)}</TableCell>
                  </TableRow>
                  {isOpen && (
                    <TableRow>
                      <TableCell colSpan={columnCount} className="whitespace-normal bg-gray-50">
                        <RequestDetails entry={entry} />
                      </TableCell>
                    </TableRow>
                  )}
                </Fragment>
              );
            })
          )}
        </TableBody>
      </Table>
    </div>
  );
};

const History = ({ tenantId }: { tenantId: number }) => {
  const history = useAuditHistory(tenantId);
  if (history.isError) return <ErrorCallout message={history.error.message} />;
  const rows = history.data?.rows;
  return (
    <>
      {rows && rows.length >= auditRowLimit && (
        <p className="text-sm text-gray-700">The newest {auditRowLimit} rows are shown.</p>
      )}
      <AuditTable rows={rows} />
    </>
  );
};

/**
 * /admin/tenants/{tenantId}/audit (route UserActionAudit, query `name`): a tenant's user-action audit
 * history, and for platform admins the replay of its event stream.
 */
export const AuditHistoryPage = () => {
  const tenantId = tenantIdOfParam(useParams().tenantId);
  const [search] = useSearchParams();
  const facts = factsOf(useSession());
  // The name comes with the link from the tenants table; opened otherwise, the tenant says it.
  const named = search.get('name');
  const tenant = useQuery({
    ...adminTenantQueries.one(useAppServices().api, tenantId ?? 0),
    enabled: named === null && tenantId !== null,
  });
  const name = named ?? tenant.data?.Name ?? null;
  const subject = name ? `${name} (${tenantId ?? ''})` : `tenant ${tenantId ?? ''}`;
  return (
    <PageFrame title={`Audit history of ${subject}`}>
      <p className="text-sm">
        <TextLink to="/admin/tenants">Back to tenants</TextLink>
      </p>
      {tenantId === null ? (
        <ErrorCallout message="Tenant not found." />
      ) : (
        <>
          <Card>
            <History tenantId={tenantId} />
          </Card>
          {facts.isPlatformAdmin && (
            <Card>
              <StreamReplay initialStreamId={`tenant-${tenantId}`} />
            </Card>
          )}
        </>
      )}
    </PageFrame>
  );
};
