import { isAbsolute } from 'node:path';
import { AppEnv, CrossFieldRules, IntegerSetting, UrlSetting } from '@app/core';
import { IsIn, IsInt, IsOptional, IsString, IsUrl, Max, Min, ValidateIf } from 'class-validator';

/** Where photos are kept and served, how large an upload may be, and how the worker processes them. */
export class PhotosSettings implements CrossFieldRules {
  /** Read here only for what production requires (`violations`); CoreSettings checks its value. */
  APP_ENV: string = AppEnv.Development;

  /** Largest upload in bytes: refused with 413 as soon as the declared or streamed length passes it. */
  @IntegerSetting()
  @IsInt()
  @Min(1024)
  @Max(1024 * 1024 * 1024)
  PHOTO_MAX_BYTES = 10 * 1024 * 1024;

  @IsIn(['filesystem', 's3'])
  PHOTO_STORAGE: 'filesystem' | 's3' = 'filesystem';

  /** The filesystem driver's directory (relative to the working directory, or absolute). */
  @IsString()
  PHOTO_STORAGE_DIR = 'data/photos';

  /**
   * The base the renditions' URLs start with, formed when a photo is read: a CDN or the bucket's own address
   * with S3. Unset, the api's own `/media` (`defaultMediaBaseUrl`), which serves either storage.
   */
  @IsOptional()
  @UrlSetting(['http', 'https'], 'https://media.pets.example')
  PHOTO_PUBLIC_BASE_URL?: string;

  @ValidateIf((settings: PhotosSettings) => settings.PHOTO_STORAGE === 's3')
  @IsString()
  S3_BUCKET?: string;

  /** An S3-compatible store's address; AWS's own when unset. */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  S3_ENDPOINT?: string;

  @IsString()
  S3_REGION = 'us-east-1';

  /** With its secret, the S3 credentials; when unset, the SDK's usual chain (instance role, profile) finds them. */
  @IsOptional()
  @IsString()
  AWS_ACCESS_KEY_ID?: string;

  @ValidateIf((settings: PhotosSettings) => settings.AWS_ACCESS_KEY_ID !== undefined)
  @IsString()
  AWS_SECRET_ACCESS_KEY?: string;

  /** Photos one worker process renders at once (each takes about one core while it runs). */
  @IntegerSetting()
  @IsInt()
  @Min(1)
  @Max(64)
  PHOTO_WORKER_CONCURRENCY = 2;

  /**
   * How long a photo job stays claimed by a worker that stopped renewing its lock (e.g. was killed) before
   * another worker takes it over.
   */
  @IntegerSetting()
  @IsInt()
  @Min(1000)
  PHOTO_WORKER_LOCK_DURATION_MS = 30000;

  /** Wait before a photo whose storage or database was away is tried again (attempts are not counted). */
  @IntegerSetting()
  @IsInt()
  @Min(10)
  PHOTO_RETRY_DELAY_MS = 2000;

  /**
   * How often the worker enqueues photos left `processing` without a job, and removes the files of
   * removed photos; also how old such a photo or file must be (so uploads in flight are left alone).
   */
  @IntegerSetting()
  @IsInt()
  @Min(100)
  PHOTO_SWEEP_INTERVAL_MS = 20000;

  /**
   * In production the defaults would lose photos or hand out addresses no client reaches: a directory
   * inside the working directory (not the volume the api and the worker share), and URLs on localhost.
   */
  violations(): string[] {
    if (this.APP_ENV !== AppEnv.Production) return [];
    const violations: string[] = [];
    if (this.PHOTO_STORAGE === 'filesystem' && !isAbsolute(this.PHOTO_STORAGE_DIR)) {
      violations.push(
        `PHOTO_STORAGE_DIR=${JSON.stringify(this.PHOTO_STORAGE_DIR)}: in production set PHOTO_STORAGE_DIR to an ` +
          'absolute path on storage the api and the worker share, or PHOTO_STORAGE=s3',
      );
    }
    if (this.PHOTO_PUBLIC_BASE_URL === undefined) {
      violations.push(
        'PHOTO_PUBLIC_BASE_URL is not set: in production set it to where clients fetch renditions, such as ' +
          'https://pets.example/media (the api serves them at /media) or a CDN',
      );
    }
    return violations;
  }
}
