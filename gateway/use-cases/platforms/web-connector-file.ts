import { randomUUID } from 'node:crypto';

/** The path of our QuickBooks Web Connector SOAP endpoint under PUBLIC_URL. */
export const QBWC_SOAP_PATH = '/api/qbd/soap';

const escapeXml = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c,
  );

/** Web Connector GUIDs are upper-case in braces: {57F3B9B1-86F1-4FCC-B1EE-566DE1813D20}. */
export const webConnectorGuid = (): string => `{${randomUUID().toUpperCase()}}`;

export type WebConnectorFile = {
  publicUrl: string;
  appName: string;
  /** Ties the file to one seller, so each company gets its own Web Connector application. */
  appId: string;
  userName: string;
  ownerId: string;
  fileId: string;
};

/**
 * The .qwc file the QuickBooks Web Connector installs: it names our SOAP endpoint, the user it signs in
 * as and the company file association. The Web Connector requires https except on localhost.
 */
export const webConnectorXml = (file: WebConnectorFile): string => {
  const base = file.publicUrl.replace(/\/+$/, '');
  const element = (name: string, value: string) => `  <${name}>${escapeXml(value)}</${name}>`;
  return [
    '<?xml version="1.0"?>',
    '<QBWCXML>',
    element('AppName', file.appName),
    element('AppID', file.appId),
    element('AppURL', `${base}${QBWC_SOAP_PATH}`),
    element('AppDescription', 'Syncs your QuickBooks Desktop company with Ledgerwise.'),
    element('AppSupport', `${base}/platforms`),
    element('UserName', file.userName),
    element('OwnerID', file.ownerId),
    element('FileID', file.fileId),
    element('QBType', 'QBFS'),
    '  <Scheduler>',
    '    <RunEveryNMinutes>60</RunEveryNMinutes>',
    '  </Scheduler>',
    element('IsReadOnly', 'true'),
    '</QBWCXML>',
    '',
  ].join('\n');
};
