import { join } from 'node:path';
import type { Readable } from 'node:stream';
import {
  CreateBucketCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { Config } from '../../../contracts/config';
import { AppError } from '../../../contracts/errors';
import {
  inThreadOrHere,
  sharedThreadCalls,
  ThreadCallError,
  type ThreadCalls,
} from '../../threads/thread-calls';

/**
 * The report archive's files in any S3-compatible store (docs/adr/0035-report-archive.md): s3rver
 * locally, AWS S3 or another service in production, through the configured endpoint.
 */
export type ReportObjectStore = {
  readonly bucket: string;
  /** Stores (or replaces) one file. The bucket is created on first use. */
  put: (key: string, bytes: Uint8Array, contentType: string) => Promise<void>;
  /** One file as a Node stream, never buffered; `not_found` when there is none. */
  get: (key: string) => Promise<StoredObject>;
  /** Deletes every file under a prefix (a tenant's on purge) and answers how many went. */
  deletePrefix: (prefix: string) => Promise<number>;
  /** Starts the upload thread ahead of the first upload (a reports worker at its start). */
  warm?: () => void;
  close: () => void;
};

export type StoredObject = { body: Readable; contentLength: number; contentType: string };

export type ObjectStoreConfig = Pick<
  Config,
  | 'S3_ENDPOINT'
  | 'S3_BUCKET'
  | 'S3_REGION'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
  | 'S3_FORCE_PATH_STYLE'
>;

const statusOf = (error: unknown): number | undefined =>
  error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;

const isMissing = (error: unknown) =>
  statusOf(error) === 404 ||
  (error instanceof S3ServiceException && ['NoSuchKey', 'NotFound', 'NoSuchBucket'].includes(error.name));

const unavailableText = 'The report archive is not available right now. Please try again.';

/** A store that does not answer is a passing condition: workers retry, the browser is told to. */
const unavailable = (error: unknown) =>
  new AppError('unavailable', unavailableText, {
    message: `S3: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
  });

/** One upload posted to the archive's upload thread (object-put-thread.ts). */
export type PutCall = { key: string; bytes: Uint8Array; contentType: string };

/**
 * A thread's upload that finds no answer in this time is taken as stuck: the upload is done again on
 * the caller's thread (the same key: storing it twice leaves one file).
 */
const PUT_THREAD_TIMEOUT_MS = 120_000;

/**
 * The upload thread of a store configuration: the stores a process makes for the same bucket share
 * one (each loads the SDK once).
 */
const putThreadOf = (config: ObjectStoreConfig): ThreadCalls<PutCall, null> =>
  sharedThreadCalls<PutCall, null>({
    file: join(__dirname, 'object-put-thread.ts'),
    workerData: {
      S3_ENDPOINT: config.S3_ENDPOINT,
      S3_BUCKET: config.S3_BUCKET,
      S3_REGION: config.S3_REGION,
      S3_ACCESS_KEY_ID: config.S3_ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: config.S3_SECRET_ACCESS_KEY,
      S3_FORCE_PATH_STYLE: config.S3_FORCE_PATH_STYLE,
    } satisfies ObjectStoreConfig,
    name: 'report archive upload',
    timeoutMs: PUT_THREAD_TIMEOUT_MS,
  });

/** DeleteObjects takes at most 1,000 keys a request. */
const DELETE_BATCH = 1000;

/**
 * The store. Its uploads run in a worker thread of their own (docs/adr/0058): the SDK's signing
 * (a SHA-256 of the whole body) and its socket writes took about an eighth of the reports worker's
 * main thread in a schedule tick. A thread that fails or is stuck hands the upload back to the
 * caller's thread; `putThread: false` uploads on the caller's thread (the upload thread's own store).
 */
export const createReportObjectStore = (
  config: ObjectStoreConfig,
  options: { putThread?: boolean } = {},
): ReportObjectStore => {
  const here = createStoreHere(config);
  if (options.putThread === false) return here;
  const putThread = putThreadOf(config);
  return {
    ...here,
    warm: () => putThread.warm(),
    put: (key, bytes, contentType) =>
      inThreadOrHere(
        async () => {
          // A copy of its own, handed over (not cloned again): a view into a larger buffer would
          // otherwise send the whole buffer.
          const copy = new Uint8Array(bytes);
          try {
            await putThread.call({ key, bytes: copy, contentType }, [copy.buffer]);
          } catch (error) {
            if (error instanceof ThreadCallError)
              throw new AppError('unavailable', unavailableText, { message: error.message });
            throw error;
          }
        },
        () => here.put(key, bytes, contentType),
      ),
  };
};

const createStoreHere = (config: ObjectStoreConfig): ReportObjectStore => {
  const client = new S3Client({
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    credentials: { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY },
    // Checksums only where S3 requires them (DeleteObjects): other S3-compatible servers do not all
    // understand the CRC32 trailers recent SDKs add by default.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // Each command class's middleware stack resolved once, not on every send (about a fifth of the
    // SDK's time per upload in a tick's profile); nothing here changes the stack after the first send.
    cacheMiddleware: true,
  });
  const Bucket = config.S3_BUCKET;

  let bucketReady: Promise<void> | null = null;
  const ensureBucket = (): Promise<void> => {
    bucketReady ??= (async () => {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
      } catch (error) {
        if (!isMissing(error)) throw error;
        try {
          await client.send(new CreateBucketCommand({ Bucket }));
        } catch (createError) {
          // Another process created it meanwhile.
          const name = createError instanceof Error ? createError.name : '';
          if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw createError;
        }
      }
    })().catch((error: unknown) => {
      bucketReady = null; // try again next time
      throw error;
    });
    return bucketReady;
  };

  const listKeys = async (prefix: string): Promise<string[]> => {
    const keys: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }));
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return keys;
  };

  return {
    bucket: Bucket,
    put: async (key, bytes, contentType) => {
      try {
        await ensureBucket();
        await client.send(
          new PutObjectCommand({
            Bucket,
            Key: key,
            Body: bytes,
            ContentType: contentType,
            ContentLength: bytes.byteLength,
          }),
        );
      } catch (error) {
        throw unavailable(error);
      }
    },
    get: async (key) => {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        return {
          body: answer.Body as Readable,
          contentLength: answer.ContentLength ?? 0,
          contentType: answer.ContentType ?? 'application/octet-stream',
        };
      } catch (error) {
        if (isMissing(error)) throw new AppError('not_found', 'Report not found.');
        throw unavailable(error);
      }
    },
    deletePrefix: async (prefix) => {
      if (!prefix.endsWith('/')) throw new Error(`A prefix to delete must end with a slash: ${prefix}`);
      let keys: string[];
      try {
        keys = await listKeys(prefix);
      } catch (error) {
        if (isMissing(error)) return 0; // no bucket yet: nothing to delete
        throw unavailable(error);
      }
      for (let start = 0; start < keys.length; start += DELETE_BATCH) {
        const batch = keys.slice(start, start + DELETE_BATCH);
        try {
          const answer = await client.send(
            new DeleteObjectsCommand({
              Bucket,
              Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
            }),
          );
          const failed = answer.Errors ?? [];
          if (failed.length > 0)
            throw new Error(
              `${failed.length} objects not deleted, first ${failed[0]?.Key}: ${failed[0]?.Message}`,
            );
        } catch (error) {
          throw unavailable(error);
        }
      }
      return keys.length;
    },
    close: () => client.destroy(),
  };
};
