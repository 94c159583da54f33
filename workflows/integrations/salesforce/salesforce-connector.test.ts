import { failureTypes } from '../../connectors/shared/connector-failure';
import { errorsOf, salesforceFailure, soqlContains, soqlString } from './salesforce-client';
import { domainOf, externalKeyOf, markerOf } from './salesforce-connector';

/** The Salesforce connector's pure parts: SOQL literals, keys, websites and error answers (ADR 48). */

const answer = (status: number, body: unknown) => ({
  status,
  headers: new Headers(),
  text: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('SOQL literals', () => {
  it('escapes quotes and backslashes so a name cannot end the literal', () => {
    expect(soqlString("O'Brien & Sons")).toBe("'O\\'Brien & Sons'");
    expect(soqlString("a\\' OR Name != '")).toBe("'a\\\\\\' OR Name != \\''");
  });

  it('takes only plain markers into a LIKE pattern', () => {
    expect(soqlContains('lw:0123abcd')).toBe("'%lw:0123abcd%'");
    expect(() => soqlContains("x' OR Id != '")).toThrow(/not a marker/);
  });
});

describe('keys and websites', () => {
  it('keeps a short plain key as the external id and digests any other', () => {
    expect(externalKeyOf('segment:acme:2026-02-03')).toBe('segment:acme:2026-02-03');
    const push = 'lw:7:segmentChange:41:1#Low%20risk>High%20risk@2026-02-03';
    expect(externalKeyOf(push)).toMatch(/^lw-[0-9a-f]{40}$/);
    expect(externalKeyOf(push)).toBe(externalKeyOf(push));
    expect(externalKeyOf(push)).not.toBe(externalKeyOf(`${push}x`));
    expect(markerOf(push)).toMatch(/^lw:[0-9a-f]{16}$/);
  });

  it('reads the domain from a Website in any of the shapes people type', () => {
    expect(domainOf('https://www.Acme.example/about')).toBe('acme.example');
    expect(domainOf('northwind.example')).toBe('northwind.example');
    expect(domainOf('http://shop.contoso.example:8080')).toBe('shop.contoso.example');
    expect(domainOf('')).toBeNull();
    expect(domainOf(null)).toBeNull();
    expect(domainOf('not a url at all')).toBeNull();
  });
});

describe('error answers', () => {
  it('reads Salesforce’s error array and the token endpoint’s error', () => {
    expect(
      errorsOf(JSON.stringify([{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }])),
    ).toEqual([{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }]);
    expect(errorsOf(JSON.stringify({ error: 'invalid_grant', error_description: 'expired' }))).toEqual([
      { message: 'expired', errorCode: 'invalid_grant' },
    ]);
    expect(errorsOf('<html>')).toEqual([]);
  });

  it('ends the job in words on the daily limit, retries a concurrency limit, and names a missing field', () => {
    const daily = salesforceFailure(
      answer(403, [{ message: 'TotalRequests Limit exceeded.', errorCode: 'REQUEST_LIMIT_EXCEEDED' }]),
      'read Accounts',
    );
    expect(daily).toMatchObject({ type: failureTypes.limited, nonRetryable: true });
    const concurrent = salesforceFailure(
      answer(403, [
        { message: 'ConcurrentPerOrgLongTxn Limit exceeded.', errorCode: 'REQUEST_LIMIT_EXCEEDED' },
      ]),
      'read Accounts',
    );
    expect(concurrent).toMatchObject({ type: 'ConnectorThrottled', nonRetryable: false });
    const field = salesforceFailure(
      answer(400, [{ message: "No such column 'Accounting_Id__c'", errorCode: 'INVALID_FIELD' }]),
      'read Accounts',
    );
    expect(field).toMatchObject({ type: failureTypes.refused, nonRetryable: true });
    expect(field.message).toContain('INVALID_FIELD');
    const other = salesforceFailure(answer(400, [{ message: 'bad', errorCode: 'MALFORMED_QUERY' }]), 'read');
    expect(other).not.toHaveProperty('nonRetryable', true);
  });
});
