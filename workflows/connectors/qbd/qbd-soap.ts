import type { QbdSessions } from './qbd-session';
import { child, escapeXml, parseXml } from './xml';

/**
 * The Web Connector's SOAP 1.1 protocol (QBWebConnectorSvc, namespace http://developer.intuit.com/):
 * reads the method and its parameters from the envelope and writes the `<method>Response` with its
 * `<method>Result`. authenticate answers a string array (ArrayOfString); receiveResponseXML an int;
 * every other method a string (sendRequestXML's qbXML escaped as text).
 */

export const QBWC_NAMESPACE = 'http://developer.intuit.com/';

export const qbwcMethods = [
  'serverVersion',
  'clientVersion',
  'authenticate',
  'sendRequestXML',
  'receiveResponseXML',
  'getLastError',
  'connectionError',
  'closeConnection',
] as const;
export type QbwcMethod = (typeof qbwcMethods)[number];

export type SoapCall = { method: QbwcMethod; params: Record<string, string> };

/** A SOAP request we cannot answer: the route sends it back as a SOAP Fault. */
export class SoapFault extends Error {}

export const readSoapCall = (envelope: string): SoapCall => {
  let document;
  try {
    document = parseXml(envelope);
  } catch (error) {
    throw new SoapFault(`The request is not XML: ${error instanceof Error ? error.message : String(error)}`);
  }
  const body = document.local === 'Envelope' ? child(document, 'Body') : undefined;
  const call = body?.children[0];
  if (!call) throw new SoapFault('The request holds no SOAP body.');
  const method = qbwcMethods.find((m) => m === call.local);
  if (!method) throw new SoapFault(`Unknown method: ${call.local}`);
  const params: Record<string, string> = {};
  for (const parameter of call.children) params[parameter.local] = parameter.text;
  return { method, params };
};

const envelope = (inner: string) =>
  [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" ' +
      'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">',
    `<soap:Body>${inner}</soap:Body>`,
    '</soap:Envelope>',
  ].join('\n');

export const soapResponse = (method: QbwcMethod, result: string | number | string[]): string => {
  const value = Array.isArray(result)
    ? result.map((item) => `<string>${escapeXml(item)}</string>`).join('')
    : escapeXml(String(result));
  return envelope(
    `<${method}Response xmlns="${QBWC_NAMESPACE}"><${method}Result>${value}</${method}Result></${method}Response>`,
  );
};

export const soapFault = (message: string): string =>
  envelope(
    `<soap:Fault><faultcode>soap:Client</faultcode><faultstring>${escapeXml(message)}</faultstring></soap:Fault>`,
  );

/** Runs one call against the sessions and answers its SOAP response. */
export const answerSoapCall = async (sessions: QbdSessions, call: SoapCall): Promise<string> => {
  const p = (name: string) => call.params[name] ?? '';
  switch (call.method) {
    case 'serverVersion':
      return soapResponse(call.method, sessions.serverVersion());
    case 'clientVersion':
      return soapResponse(call.method, sessions.clientVersion(p('strVersion')));
    case 'authenticate':
      return soapResponse(call.method, await sessions.authenticate(p('strUserName'), p('strPassword')));
    case 'sendRequestXML':
      return soapResponse(
        call.method,
        await sessions.sendRequestXML(p('ticket'), {
          companyFile: p('strCompanyFileName'),
          clientVersion: [p('qbXMLCountry'), p('qbXMLMajorVers'), p('qbXMLMinorVers')]
            .filter(Boolean)
            .join(' '),
        }),
      );
    case 'receiveResponseXML':
      return soapResponse(
        call.method,
        await sessions.receiveResponseXML(p('ticket'), {
          response: p('response'),
          hresult: p('hresult'),
          message: p('message'),
        }),
      );
    case 'getLastError':
      return soapResponse(call.method, await sessions.getLastError(p('ticket')));
    case 'connectionError':
      return soapResponse(
        call.method,
        await sessions.connectionError(p('ticket'), p('hresult'), p('message')),
      );
    case 'closeConnection':
      return soapResponse(call.method, await sessions.closeConnection(p('ticket')));
  }
};
