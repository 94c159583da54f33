import { failureTypes, userFailure } from '../../connectors/shared/connector-failure';
import { contentTypeOf } from '../../../contracts/api/reports';
import { callCloud, unexpected, type CloudHttp } from './cloud-http';
import type { WrittenFile } from './google-sheets-writer';

/**
 * A Live Report as an Excel workbook in the connected account's OneDrive (Microsoft Graph), replaced
 * in place: the drive item the last refresh wrote (PUT /me/drive/items/{id}/content), or, before the
 * first write or when the user deleted it, the file /Ledgerwise/{name}.xlsx (PUT
 * /me/drive/root:/Ledgerwise/{name}.xlsx:/content, which replaces a file already at that path). The
 * answer's driveItem gives the id and webUrl. One request up to Graph's 250 MB simple-upload limit.
 * docs/adr/0049-live-reports.md.
 */
export type OneDriveDeps = {
  http: CloudHttp;
  /** MICROSOFT_GRAPH_API_URL, e.g. https://graph.microsoft.com/v1.0 */
  graphApiUrl: string;
};

/** Graph's limit for a one-request upload; larger files need an upload session. */
export const simpleUploadLimit = 250 * 1024 * 1024;

export const LIVE_REPORTS_FOLDER = 'Ledgerwise';

/** A OneDrive file name: no characters OneDrive refuses, no trailing dot or space. */
export const driveFileName = (name: string) =>
  `${
    name
      .replace(/["*:<>?/\\|#%]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/[. ]+$/, '') || 'Live report'
  }.xlsx`;

type DriveItem = { id?: string; webUrl?: string };

export const writeOneDriveWorkbook = async (
  deps: OneDriveDeps,
  request: {
    knownFileId: string | null;
    /** The file's name without .xlsx; unique per seller, so two companies of one name never share a file. */
    fileName: string;
    bytes: Uint8Array;
  },
): Promise<WrittenFile> => {
  if (request.bytes.byteLength > simpleUploadLimit)
    throw userFailure(
      `The workbook is ${Math.ceil(request.bytes.byteLength / 1024 / 1024)} MB, more than OneDrive takes in one upload.`,
      failureTypes.refused,
    );
  const api = deps.graphApiUrl.replace(/\/+$/, '');
  const bytes = { data: request.bytes, contentType: contentTypeOf.xlsx };
  const upload = (url: string) => callCloud(deps.http, { method: 'PUT', url, bytes });
  let response = request.knownFileId
    ? await upload(`${api}/me/drive/items/${encodeURIComponent(request.knownFileId)}/content`)
    : null;
  // Deleted by the user (or never written): the file goes back to its path.
  if (response === null || response.status === 404) {
    const path = `${LIVE_REPORTS_FOLDER}/${driveFileName(request.fileName)}`;
    response = await upload(
      `${api}/me/drive/root:/${path.split('/').map(encodeURIComponent).join('/')}:/content`,
    );
  }
  if (response.status !== 200 && response.status !== 201)
    throw unexpected(deps.http.platform, 'upload the workbook', response);
  const item = response.json() as DriveItem;
  if (!item.id || !item.webUrl)
    throw new Error(`${deps.http.platform} answered a drive item without id or webUrl`);
  return { fileId: item.id, storageUrl: item.webUrl };
};
