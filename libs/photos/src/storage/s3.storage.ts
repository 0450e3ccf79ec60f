import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  NotFound,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { StoredFileMissingError } from '../photos.errors';
import type { PhotosSettings } from '../photos.settings';
import type { PhotoStorage, PutOptions, StorageBody, StoredFileStream } from './photo-storage';

/** How long the store may take to accept a connection, then stay silent on a request (per attempt). */
const STORE_CONNECT_TIMEOUT_MS = 3_000;
const STORE_SILENCE_TIMEOUT_MS = 10_000;

/** Removals sent at once. */
const DELETE_CONCURRENCY = 16;

function isMissing(error: unknown): boolean {
  return error instanceof NoSuchKey || error instanceof NotFound;
}

/**
 * Files as objects of one bucket of any S3-compatible store. A PUT is atomic and durable when it answers.
 * Addresses are path-style when an endpoint is configured: the form every S3-compatible server accepts.
 */
export class S3Storage implements PhotoStorage {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(settings: PhotosSettings) {
    this.bucket = settings.S3_BUCKET!;
    const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey } = settings;
    this.client = new S3Client({
      region: settings.S3_REGION,
      endpoint: settings.S3_ENDPOINT,
      forcePathStyle: settings.S3_ENDPOINT !== undefined,
      credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
      // The SDK would otherwise send a streamed body with trailing checksums (aws-chunked), which many
      // S3-compatible stores do not take; a checksum is added only where the operation requires one.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // A store that is away or stalled fails a request in seconds, so the caller (the worker's retry, the
      // upload's 503) acts: a connection it does not open in 3 s, a request it leaves silent for 10 s (the
      // SDK tries 3 times). The SDK's `requestTimeout` would only warn.
      requestHandler: { connectionTimeout: STORE_CONNECT_TIMEOUT_MS, socketTimeout: STORE_SILENCE_TIMEOUT_MS },
    });
  }

  async put(key: string, body: StorageBody, options: PutOptions): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ContentType: options.contentType,
        CacheControl: options.cacheControl,
        ...(Buffer.isBuffer(body)
          ? { Body: body, ContentLength: body.length }
          : { Body: createReadStream(body.path), ContentLength: body.length }),
      }),
    );
  }

  async read(key: string): Promise<Buffer> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return Buffer.from(await object.Body!.transformToByteArray());
    } catch (error) {
      if (isMissing(error)) throw new StoredFileMissingError(key);
      throw error;
    }
  }

  async open(key: string): Promise<StoredFileStream | undefined> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return { body: object.Body as Readable, length: object.ContentLength ?? 0 };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /**
   * One DeleteObject per key rather than DeleteObjects: S3-compatible stores differ on the batch's signed POST
   * (s3rver refuses its signature), and the sweep removes a few files per removed photo. A missing key is
   * no error to S3.
   */
  async delete(keys: readonly string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += DELETE_CONCURRENCY) {
      await Promise.all(
        keys
          .slice(start, start + DELETE_CONCURRENCY)
          .map((Key) => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key }))),
      );
    }
  }

  /** A PUT stores the whole object or nothing, so an unfinished one leaves nothing behind. */
  async removeAbandonedWrites(): Promise<void> {}
}
