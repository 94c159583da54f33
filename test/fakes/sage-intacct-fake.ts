import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sageDate } from '../../workflows/connectors/sage-intacct/sage-mapping';
import { child, escapeXml, parseXml, textAt } from '../../workflows/connectors/qbd/xml';

/**
 * Sage Intacct's XML gateway for tests (ADR 44, Sage section): it checks the sender credentials and
 * the company login of every request, answers getAPISession, readByQuery (with a
 * `WHENMODIFIED >= 'MM/DD/YYYY HH:MM:SS'` query, a `FIELD IN (1,'a',...)` one, or none) and readMore with the documented response
 * shape (`<data listtype count totalcount numremaining resultId>`), from records held as field maps
 * in Sage's own upper-case field names. Faults on demand: a refused sign-in, an error result, an
 * HTTP 5xx burst.
 */

export type SageRecord = Record<string, string>;
export type SageCompany = {
  login: { companyId: string; userId: string; password: string };
  objects: Record<'CUSTOMER' | 'ARINVOICE' | 'ARADJUSTMENT' | 'ARPYMT', SageRecord[]> &
    /** Invoice lines (RECORDKEY: the invoice) and payment details (PAYMENTKEY, RECORDKEY, ADJUSTMENTKEY). */
    Partial<Record<'ARINVOICEITEM' | 'ARPYMTDETAIL', SageRecord[]>>;
};

/** Objects a company may leave out: the fake answers none of them. */
const optionalObjects = new Set(['ARINVOICEITEM', 'ARPYMTDETAIL']);

export const SAGE_FAKE_SENDER = { senderId: 'ledgerwise-sender', senderPassword: 'sender-secret' };

const errorXml = (no: string, description2: string, correction = '') =>
  `<errormessage><error><errorno>${no}</errorno><description></description>` +
  `<description2>${escapeXml(description2)}</description2><correction>${escapeXml(correction)}</correction></error></errormessage>`;

const recordXml = (object: string, record: SageRecord) =>
  `<${object.toLowerCase()}>` +
  Object.entries(record)
    .map(([field, value]) => `<${field}>${escapeXml(value)}</${field}>`)
    .join('') +
  `</${object.toLowerCase()}>`;

export const startSageIntacctFake = async (company: SageCompany) => {
  const results = new Map<string, { object: string; rows: SageRecord[]; offset: number; pageSize: number }>();
  const requests: string[] = [];
  let nextResult = 0;
  let failNext = 0;

  const answer = (body: string): string => {
    const request = parseXml(body);
    const control = child(request, 'control');
    const controlId = textAt(control, 'controlid') ?? '';
    const head = `<control><status>success</status><senderid>${escapeXml(textAt(control, 'senderid') ?? '')}</senderid><controlid>${escapeXml(controlId)}</controlid><uniqueid>false</uniqueid><dtdversion>3.0</dtdversion></control>`;
    if (
      textAt(control, 'senderid') !== SAGE_FAKE_SENDER.senderId ||
      textAt(control, 'password') !== SAGE_FAKE_SENDER.senderPassword
    )
      return `<?xml version="1.0" encoding="UTF-8"?><response><control><status>failure</status></control>${errorXml('XL03000006', 'Incorrect Intacct XML Partner ID or password.')}</response>`;
    const operation = child(request, 'operation');
    const login = child(child(operation, 'authentication'), 'login');
    const ok =
      textAt(login, 'companyid') === company.login.companyId &&
      textAt(login, 'userid') === company.login.userId &&
      textAt(login, 'password') === company.login.password;
    if (!ok)
      return `<?xml version="1.0" encoding="UTF-8"?><response>${head}<operation><authentication><status>failure</status><userid>${escapeXml(textAt(login, 'userid') ?? '')}</userid><companyid>${escapeXml(textAt(login, 'companyid') ?? '')}</companyid></authentication>${errorXml('XL03000006', 'Sign-in information is incorrect. Please check your request.')}</operation></response>`;
    const auth = `<authentication><status>success</status><userid>${escapeXml(company.login.userId)}</userid><companyid>${escapeXml(company.login.companyId)}</companyid><locationid></locationid><sessiontimestamp>2026-01-01T00:00:00+00:00</sessiontimestamp><sessiontimeout>2026-01-02T00:00:00+00:00</sessiontimeout></authentication>`;
    const fn = child(child(operation, 'content'), 'function');
    const call = fn?.children[0];
    const functionControlId = fn?.attributes.controlid ?? '';
    const result = (inner: string, name: string, status = 'success') =>
      `<?xml version="1.0" encoding="UTF-8"?><response>${head}<operation>${auth}<result><status>${status}</status><function>${name}</function><controlid>${escapeXml(functionControlId)}</controlid>${inner}</result></operation></response>`;
    if (call?.local === 'getAPISession')
      return result(
        `<data><api><sessionid>fake-session</sessionid><endpoint>https://fake/ia/xml/xmlgw.phtml</endpoint></api></data>`,
        'getAPISession',
      );
    let state;
    if (call?.local === 'readByQuery') {
      const object = textAt(call, 'object') ?? '';
      const rows =
        company.objects[object as keyof SageCompany['objects']] ??
        (optionalObjects.has(object) ? [] : undefined);
      if (!rows)
        return result(
          errorXml('DL02000001', `There was an error processing the request: unknown object ${object}.`),
          'readByQuery',
          'failure',
        );
      const query = textAt(call, 'query') ?? '';
      const since = /^WHENMODIFIED >= '([^']+)'$/.exec(query);
      const among = /^([A-Z_.]+) IN \(([^)]*)\)$/.exec(query);
      if (query !== '' && !since && !among)
        return result(errorXml('DL02000001', `Invalid query: ${query}`), 'readByQuery', 'failure');
      const from = since ? sageDate(since[1]!).getTime() : null;
      const values = among
        ? new Set(
            among[2]!.split(',').map((v) =>
              v
                .trim()
                .replace(/^'(.*)'$/, '$1')
                .replace(/''/g, "'"),
            ),
          )
        : null;
      const matching = rows.filter(
        (r) =>
          (from === null || sageDate(r.WHENMODIFIED ?? '01/01/1970').getTime() >= from) &&
          (values === null || values.has(r[among![1]!] ?? '')),
      );
      state = { object, rows: matching, offset: 0, pageSize: Number(textAt(call, 'pagesize') ?? '100') };
    } else if (call?.local === 'readMore') {
      state = results.get(textAt(call, 'resultId') ?? '');
      if (!state)
        return result(
          errorXml('DL02000001', 'Attempt to readMore with an invalid or expired resultId.'),
          'readMore',
          'failure',
        );
    } else
      return result(
        errorXml('XL03000009', `Unknown function ${call?.local ?? ''}`),
        call?.local ?? '',
        'failure',
      );
    const page = state.rows.slice(state.offset, state.offset + state.pageSize);
    state.offset += page.length;
    const remaining = state.rows.length - state.offset;
    const resultId = remaining > 0 ? `fake-result-${(nextResult += 1)}` : '';
    if (resultId) results.set(resultId, state);
    return result(
      `<data listtype="${state.object.toLowerCase()}" count="${page.length}" totalcount="${state.rows.length}" numremaining="${remaining}" resultId="${resultId}">` +
        page.map((r) => recordXml(state.object, r)).join('') +
        `</data>`,
      call.local,
    );
  };

  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      requests.push(body);
      if (failNext > 0) {
        failNext -= 1;
        res.writeHead(503).end('busy');
        return;
      }
      try {
        res.writeHead(200, { 'content-type': 'application/xml' }).end(answer(body));
      } catch (error) {
        res.writeHead(400).end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/ia/xml/xmlgw.phtml`;
  return {
    url,
    requests,
    company,
    configValues: {
      SAGE_INTACCT_API_URL: url,
      SAGE_SENDER_ID: SAGE_FAKE_SENDER.senderId,
      SAGE_SENDER_PASSWORD: SAGE_FAKE_SENDER.senderPassword,
    },
    /** Forgets every readMore result set, as Sage does when one expires. */
    expireResults: () => results.clear(),
    /** The next n requests answer HTTP 503. */
    failNext: (n: number) => {
      failNext = n;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
export type SageIntacctFake = Awaited<ReturnType<typeof startSageIntacctFake>>;

/**
 * A company of 40 customers, `invoiceCount` invoices (a quarter paid, each by one payment) and no
 * adjustments, all last modified on 1 June 2025: the worker-kill and resume tests' books.
 */
export const sageKillCompany = (invoiceCount: number): SageCompany => {
  const old = '06/01/2025 10:00:00';
  const customers = Array.from({ length: 40 }, (_, i) => ({
    RECORDNO: String(i + 1),
    CUSTOMERID: `K-${String(i + 1).padStart(4, '0')}`,
    NAME: `Kill Customer ${i + 1}`,
    'DISPLAYCONTACT.EMAIL1': `k${i + 1}@example.test`,
    WHENCREATED: '05/01/2025 09:00:00',
    WHENMODIFIED: old,
  }));
  const invoices: SageRecord[] = Array.from({ length: invoiceCount }, (_, i) => {
    const n = i + 1;
    const total = `${((n * 41) % 700) + 15}.${String((n * 13) % 100).padStart(2, '0')}`;
    return {
      RECORDNO: String(10_000 + n),
      RECORDID: `KINV-${n}`,
      CUSTOMERID: customers[n % 40]!.CUSTOMERID,
      WHENCREATED: '07/01/2025',
      WHENDUE: '07/31/2025',
      TOTALENTERED: total,
      TOTALDUE: n % 4 === 0 ? '0.00' : total,
      STATE: n % 4 === 0 ? 'Paid' : 'Posted',
      WHENMODIFIED: old,
    };
  });
  const payments = invoices
    .filter((_, i) => (i + 1) % 4 === 0)
    .map((invoice, i) => ({
      RECORDNO: String(50_000 + i),
      CUSTOMERID: invoice.CUSTOMERID!,
      RECEIPTDATE: '07/15/2025',
      WHENCREATED: '07/15/2025',
      TOTALENTERED: invoice.TOTALENTERED!,
      WHENMODIFIED: old,
    }));
  return {
    login: { companyId: 'KILL-CO', userId: 'ws-user', password: 'Kill-secret-1' },
    objects: { CUSTOMER: customers, ARINVOICE: invoices, ARADJUSTMENT: [], ARPYMT: payments },
  };
};
