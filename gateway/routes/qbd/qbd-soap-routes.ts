import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  QbdCaptureRequest,
  QbdCaptureResponse,
  QbdLogsParams,
  QbdLogsQuery,
  QbdLogsResponse,
  QbdSessionRequest,
  QbdSessionResponse,
  QbdSoapEnvelope,
} from '../../../contracts/api/qbd';
import { AppError } from '../../../contracts/errors';
import { sellerStream } from '../../../contracts/stream-ids';
import { sellerDecider } from '../../../domain/seller/seller-decider';
import { latestQbdLogs, qbdLastAnswers, qbdRequestSummary } from '../../../projections/qbd/qbd-logs';
import {
  createQbdSessions,
  latestSellerFact,
  QBD_SESSIONS_COLLECTION,
  ensureQbdSessionIndexes,
  type QbdSessionDoc,
} from '../../../workflows/connectors/qbd/qbd-session';
import {
  answerSoapCall,
  readSoapCall,
  SoapFault,
  soapFault,
} from '../../../workflows/connectors/qbd/qbd-soap';
import { QBWC_SOAP_PATH } from '../../use-cases/platforms/web-connector-file';
import { readState } from '../../../workflows/sync/system-commands';
import { verifyPassword } from '../../auth/password-hash';
import { credentialVaultOf } from '../../use-cases/platforms/credential-vault-of';

/** What the log viewer calls each query's last sync (admin.md section 2). */
const lastSyncLabels = {
  classes: 'ClassQueryRs',
  customers: 'CustomerQueryRs',
  products: 'ItemQueryRs',
  estimates: 'EstimateQueryRs',
  invoices: 'InvoiceQueryRs',
  creditMemos: 'CreditMemoQueryRs',
  payments: 'ReceivePaymentQueryRs',
  salesReceipts: 'SalesReceiptQueryRs',
  journalEntries: 'JournalEntryQueryRs',
} as const;

/**
 * The QuickBooks Web Connector's SOAP service and the admin QBD tools (ADR 44).
 *
 * POST /api/qbd/soap is public and CSRF-exempt: the Web Connector is no browser, and each session is
 * authenticated by the one-time password of POST /api/qbd/config, then by its ticket. It has a
 * rate limit of its own, as one run sends two calls per hundred records. The SOAP body is read as
 * text in this scope alone.
 */
export const qbdSoapRoutes: FastifyPluginAsyncZod = (app) => {
  const { services } = app;
  const sessions = createQbdSessions({
    db: services.db,
    writeSide: services.writeSide,
    vault: credentialVaultOf(services),
    now: () => services.now(),
    verifyPassword,
    metricsPrefix: services.config,
  });
  for (const type of ['text/xml', 'application/soap+xml'])
    app.addContentTypeParser(
      type,
      { parseAs: 'string', bodyLimit: 20 * 1024 * 1024 },
      (_request, body, done) => done(null, body),
    );

  app.post(
    QBWC_SOAP_PATH,
    {
      config: { access: 'public', csrfExempt: true, rateLimit: { max: 1200, timeWindow: '1 minute' } },
      bodyLimit: 20 * 1024 * 1024,
      schema: { tags: ['qbd'], body: QbdSoapEnvelope },
    },
    async (request, reply) => {
      reply.type('text/xml; charset=utf-8');
      try {
        return await answerSoapCall(sessions, readSoapCall(request.body));
      } catch (error) {
        if (!(error instanceof SoapFault)) throw error;
        // A soap:Client fault: the request is at fault, so 400 rather than SOAP 1.1's customary 500.
        return reply.code(400).send(soapFault(error.message));
      }
    },
  );

  const qbdSeller = async (sellerId: number) => {
    const seller = await readState(services.writeSide, sellerDecider, sellerStream(sellerId));
    if (seller.status !== 'known' || seller.provider !== 'QBD')
      throw new AppError('not_found', 'No QuickBooks Desktop seller has this id.');
    return seller;
  };

  app.post(
    '/api/qbd/session',
    {
      config: { access: 'platformAdmin' },
      schema: { tags: ['qbd'], body: QbdSessionRequest, response: { 200: QbdSessionResponse } },
    },
    async (request) => {
      const { sellerId, collectionDate, reset } = request.body;
      const seller = await qbdSeller(sellerId);
      let session: QbdSessionDoc;
      try {
        session = await sessions.start({
          sellerId,
          tenantId: seller.tenantId,
          companyFile: await latestSellerFact(services.writeSide, sellerId, 'companyFilePath'),
          collectionDate:
            collectionDate === undefined
              ? undefined
              : collectionDate === null
                ? null
                : new Date(collectionDate),
          reset,
        });
      } catch (error) {
        if (error instanceof AppError) throw error;
        const message = error instanceof Error ? error.message : String(error);
        throw new AppError('conflict', message);
      }
      return {
        session: session._id,
        sellerId,
        jobId: session.jobId,
        mode: session.mode,
        since: session.plan.since,
        until: session.plan.until,
      };
    },
  );

  app.post(
    '/api/qbd/capture',
    {
      config: { access: 'platformAdmin' },
      schema: { tags: ['qbd'], body: QbdCaptureRequest, response: { 200: QbdCaptureResponse } },
    },
    async (request) => {
      const { sellerId, xml } = request.body;
      const seller = await qbdSeller(sellerId);
      try {
        const done = await sessions.capture({ sellerId, tenantId: seller.tenantId, xml });
        return {
          query: `${done.step}QueryRs`,
          records: done.mapped,
          skipped: done.skipped,
          written: done.written,
        };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new AppError('validation', `The capture is not a qbXML query response: ${message}`, {
          properties: { xml: 'not a qbXML query response' },
        });
      }
    },
  );

  app.get(
    '/api/qbd/logs/:id',
    {
      config: { access: 'platformAdmin' },
      schema: {
        tags: ['qbd'],
        params: QbdLogsParams,
        querystring: QbdLogsQuery,
        response: { 200: QbdLogsResponse },
      },
    },
    async (request) => {
      const sellerId = request.params.id;
      await qbdSeller(sellerId);
      await ensureQbdSessionIndexes(services.db);
      const [logs, summary, answers, latest] = await Promise.all([
        latestQbdLogs(services.db, sellerId, request.query.limit),
        qbdRequestSummary(services.db, sellerId, services.now()),
        qbdLastAnswers(services.db, sellerId),
        services.db
          .collection<QbdSessionDoc>(QBD_SESSIONS_COLLECTION)
          .findOne({ sellerId }, { sort: { createdAt: -1 } }),
      ]);
      return {
        logs: logs.map((log) => ({
          Session: log.session,
          Endpoint: log.endpoint,
          Status: log.status,
          Request: log.request,
          Records: log.records,
          Time: log.at.toISOString(),
        })),
        summary,
        config: {
          sellerId,
          companyFile:
            latest?.companyFile || (await latestSellerFact(services.writeSide, sellerId, 'companyFilePath')),
          webConnectorVersion: latest?.clientVersion ?? null,
          lastSyncs: Object.fromEntries(
            Object.entries(lastSyncLabels).map(([label, answer]) => [
              label,
              answers.get(answer)?.toISOString() ?? null,
            ]),
          ),
        },
      };
    },
  );

  return Promise.resolve();
};
