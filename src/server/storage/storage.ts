import type { Config } from '../config.ts';
import { localFileStorage, type FileStorage } from './file-storage.ts';
import { s3FileStorage } from './s3-storage.ts';

/** The storage the configuration names: the S3-compatible bucket when S3_BUCKET is set, else DATA_DIR/uploads. */
export function createFileStorage(config: Config): FileStorage {
  return config.storage.driver === 's3' ? s3FileStorage(config.storage.s3) : localFileStorage(config.uploadsDir);
}
