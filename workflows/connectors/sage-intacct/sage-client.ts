import { randomUUID } from 'node:crypto';
import { child, childrenNamed, escapeXml, parseXml, textAt, type XmlElement } from '../qbd/xml';

/**
 * Sage Intacct's XML Web Services API (ADR 44, Sage section):
 * one POST of a `<request>` to the XML gateway, carrying our sender credentials in `<control>` and
 * the company's login (`<login>` userid, companyid, password: the connect form's fields) in
 * `<authentication>`, with one `<function>`. Lists are read with readByQuery (pagesize up to 1000)
 * and continued with readMore on the answer's resultId while numremaining is above 0.
 */

export type SageSender = { url: string; senderId: string; senderPassword: string; fetch?: typeof fetch };
export type SageLogin = { companyId: string; userId: string; password: string };

/** The platform refused: its own words (description2 of the first error), for the user. */
export class SageError extends Error {
  constructor(
    message: string,
    readonly errorNo: string | null,
    /** Sign-in refused: the stored login no longer works. */
    readonly authentication: boolean,
  ) {
    super(message);
  }
}

export type SageData = {
  records: XmlElement[];
  count: number;
  totalCount: number;
  numRemaining: number;
  resultId: string | null;
};

const el = (name: string, value: string) => `<${name}>${escapeXml(value)}</${name}>`;

const requestXml = (sender: SageSender, login: SageLogin, functionXml: string) =>
  [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<request><control>',
    el('senderid', sender.senderId),
    el('password', sender.senderPassword),
    el('controlid', randomUUID()),
    '<uniqueid>false</uniqueid><dtdversion>3.0</dtdversion><includewhitespace>false</includewhitespace>',
    '</control><operation><authentication><login>',
    el('userid', login.userId),
    el('companyid', login.companyId),
    el('password', login.password),
    '</login></authentication><content>',
    `<function controlid="${randomUUID()}">${functionXml}</function>`,
    '</content></operation></request>',
  ].join('');

const errorOf = (element: XmlElement | undefined, fallback: string, authentication: boolean): SageError => {
  const first = childrenNamed(child(element, 'errormessage'), 'error')[0];
  const words = [textAt(first, 'description2'), textAt(first, 'description'), textAt(first, 'correction')]
    .filter((text): text is string => !!text)
    .join(' ');
  return new SageError(words || fallback, textAt(first, 'errorno') ?? null, authentication);
};

/** Sends one function; answers its `<result>`. Throws SageError with the platform's words. */
export const callSage = async (
  sender: SageSender,
  login: SageLogin,
  functionXml: string,
): Promise<XmlElement> => {
  const response = await (sender.fetch ?? fetch)(sender.url, {
    method: 'POST',
    headers: { 'content-type': 'application/xml' },
    body: requestXml(sender, login, functionXml),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`Sage Intacct answered HTTP ${response.status}`);
  const document = parseXml(text);
  const control = child(document, 'control');
  if (textAt(control, 'status') !== 'success')
    throw errorOf(document, 'Sage Intacct refused the request.', false);
  const operation = child(document, 'operation');
  const authentication = child(operation, 'authentication');
  // A refused sign-in: the errormessage follows <authentication> inside <operation>.
  if (textAt(authentication, 'status') !== 'success')
    throw errorOf(
      child(authentication, 'errormessage') ? authentication : operation,
      'Sage Intacct refused the sign-in.',
      true,
    );
  const result = child(operation, 'result');
  if (textAt(result, 'status') !== 'success')
    throw errorOf(result, 'Sage Intacct refused the request.', false);
  return result!;
};

const dataOf = (result: XmlElement): SageData => {
  const data = child(result, 'data');
  const number = (name: string) => Number(data?.attributes[name] ?? '0') || 0;
  return {
    records: data?.children ?? [],
    count: number('count'),
    totalCount: number('totalcount'),
    numRemaining: number('numremaining'),
    resultId: data?.attributes.resultId || null,
  };
};

export const readByQuery = async (
  sender: SageSender,
  login: SageLogin,
  request: { object: string; query: string; pageSize: number },
): Promise<SageData> =>
  dataOf(
    await callSage(
      sender,
      login,
      `<readByQuery>${el('object', request.object)}<fields>*</fields>${el('query', request.query)}` +
        `${el('pagesize', String(request.pageSize))}</readByQuery>`,
    ),
  );

export const readMore = async (sender: SageSender, login: SageLogin, resultId: string): Promise<SageData> =>
  dataOf(await callSage(sender, login, `<readMore>${el('resultId', resultId)}</readMore>`));

/**
 * Tries the login with a real call (getAPISession): resolves when Sage accepts it, throws SageError
 * with the platform's own message when it does not.
 */
export const checkSageLogin = async (sender: SageSender, login: SageLogin): Promise<void> => {
  await callSage(sender, login, '<getAPISession />');
};
