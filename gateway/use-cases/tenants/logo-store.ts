import type { Binary } from 'mongodb';
import { type Db } from 'mongodb';
import type { LogoContentType } from '../../../contracts/events/tenant';

/**
 * Uploaded logos, kept in Mongo as bytes (FerretDB has no GridFS, and a logo is at most 2 MB): one
 * document per upload, so a logo under review never replaces the approved one.
 */
export type LogoDoc = {
  _id: string;
  tenantId: number;
  contentType: LogoContentType;
  bytes: Binary;
  size: number;
  uploadedAt: Date;
  uploadedBy: number;
};

/** The upload limit, in the contract so the logo form checks it too. */
export { logoMaxBytes } from '../../../contracts/api/tenants';

export const logosCollection = (db: Db) => db.collection<LogoDoc>('tenant_logos');

/** The address a logo is served from; its `v` names the upload. */
export const logoUrlOf = (tenantId: number, logoId: string): string =>
  `/api/tenants/${tenantId}/logo?v=${logoId}`;

export const logoIdOfUrl = (url: string | null): string | null =>
  url ? new URL(url, 'http://x').searchParams.get('v') : null;

/**
 * What the bytes are, from their first bytes rather than the name or the declared type, which the
 * uploader controls; null for anything but the four image types the spec allows.
 */
export const sniffLogoType = (bytes: Buffer): LogoContentType | null => {
  if (bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))) return 'image/jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  const head = bytes.subarray(0, 6).toString('latin1');
  if (head === 'GIF87a' || head === 'GIF89a') return 'image/gif';
  const text = bytes
    .subarray(0, 1024)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(text))
    return 'image/svg+xml';
  return null;
};
