import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { addressMethods, assertSafeKey, type FileStorage, type StoredObject } from './file-storage.ts';

export type S3Settings = {
  endpoint: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
};

function isMissing(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404;
}

/**
 * Objects in an S3-compatible bucket (AWS, MinIO, Garage…), so several server instances
 * share one store. Uploads go through the SDK's multipart Upload: the body is sent in 5 MB
 * parts as it arrives, never held whole; an object appears only once complete.
 */
export function s3FileStorage(settings: S3Settings): FileStorage & { client: S3Client } {
  const client = new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.accessKeyId && settings.secretAccessKey
      ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
      : {}),
  });
  const Bucket = settings.bucket;

  const storage: Omit<FileStorage, 'put' | 'remove' | 'owns'> = {
    driver: 's3',
    async write(key, body, contentType) {
      assertSafeKey(key);
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body: body, ...(contentType ? { ContentType: contentType } : {}) },
        queueSize: 2,
        leavePartsOnError: false,
      });
      await upload.done();
    },
    async read(key, range) {
      assertSafeKey(key);
      try {
        const answer = await client.send(
          new GetObjectCommand({ Bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
        );
        // Content-Range "bytes 0-99/1234" names the whole size when a range was asked.
        const total = answer.ContentRange ? Number(answer.ContentRange.split('/')[1]) : answer.ContentLength;
        return { body: answer.Body as Readable, size: total ?? 0, range: range ?? null };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async stat(key) {
      assertSafeKey(key);
      try {
        const answer = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return { key, size: answer.ContentLength ?? 0, modifiedAt: answer.LastModified ?? new Date(0) };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      assertSafeKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async list(prefix) {
      const found: StoredObject[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }));
        for (const object of page.Contents ?? []) {
          if (object.Key) found.push({ key: object.Key, size: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date(0) });
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return found;
    },
  };
  return { ...storage, ...addressMethods(storage), client };
}
