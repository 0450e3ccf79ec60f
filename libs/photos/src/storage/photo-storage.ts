import type { Readable } from 'node:stream';

/** What is written: bytes in memory (a rendition) or a file on local disk (an upload, streamed there first). */
export type StorageBody = Buffer | { path: string; length: number };

/** How a stored file is described where a store serves it itself (S3 behind a CDN). */
export interface PutOptions {
  contentType: string;
  cacheControl?: string;
}

/** A file to serve: its bytes as a stream, and what the response needs to describe them. */
export interface StoredFileStream {
  body: Readable;
  length: number;
}

/**
 * Where photos' files live: the filesystem (the default) or any S3-compatible store. Keys are paths of
 * `/`-separated segments chosen by the service (photo-files.ts), never by a client. A write is durable
 * when it resolves, and all-or-nothing: no reader ever sees part of a file.
 */
export interface PhotoStorage {
  put(key: string, body: StorageBody, options: PutOptions): Promise<void>;
  /** The whole file; StoredFileMissingError when there is none. */
  read(key: string): Promise<Buffer>;
  /** The file as a stream, or undefined when there is none. */
  open(key: string): Promise<StoredFileStream | undefined>;
  /** Removes the files; a key already gone is no error. */
  delete(keys: readonly string[]): Promise<void>;
  /**
   * Removes what writes that never finished left behind, older than `before`: the files of removed photos
   * are listed in PostgreSQL instead (photo_file_removals), so no store is ever listed whole.
   */
  removeAbandonedWrites(before: Date): Promise<void>;
}

/** Injection token of the configured PhotoStorage. */
export const PHOTO_STORAGE = Symbol('PHOTO_STORAGE');
