import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { Readable, Transform, TransformCallback } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { ValidationFailedError } from '@app/core';
import busboy from 'busboy';
import type { Request } from 'express';
import { PhotoTooLargeError } from './photos.errors';

/** What a multipart body may add to its file: boundaries and part headers, and small fields beside it. */
const MULTIPART_OVERHEAD_BYTES = 16 * 1024;

/** An upload received in full, in a file of its own on local disk. */
export interface ReceivedFile {
  path: string;
  length: number;
  /** SHA-256 of the file's bytes: what tells a retry of the upload from another one. */
  sha256: Buffer;
}

/** Passes bytes on while counting and hashing them; fails the stream as soon as they pass `maxBytes`. */
class ByteLimit extends Transform {
  length = 0;
  readonly hash = createHash('sha256');

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.length += chunk.length;
    this.hash.update(chunk);
    done(this.length > this.maxBytes ? new PhotoTooLargeError(this.maxBytes) : undefined, chunk);
  }
}

/**
 * Writes `source` to `path`. The source is piped rather than put in the pipeline, which would destroy it
 * on failure: the request's socket must outlive a refusal, to carry the 413.
 */
async function save(source: Readable, path: string, maxBytes: number): Promise<ReceivedFile> {
  const limit = new ByteLimit(maxBytes);
  // A client that goes away mid-upload ends the write, which would otherwise wait for more bytes.
  finished(source).catch((error: Error) => limit.destroy(error));
  source.pipe(limit);
  try {
    await pipeline(limit, createWriteStream(path));
  } finally {
    source.unpipe(limit);
  }
  return { path, length: limit.length, sha256: limit.hash.digest() };
}

function isMultipart(request: Request): boolean {
  return /^multipart\/form-data\s*;/i.test(request.headers['content-type'] ?? '');
}

/** The part named `file` of a multipart body, saved; other parts are read past and dropped. */
function saveFilePart(request: Request, path: string, maxBytes: number): Promise<ReceivedFile> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: request.headers, limits: { files: 1, fields: 20, parts: 21 } });
    } catch {
      reject(new ValidationFailedError('the multipart body has no boundary'));
      return;
    }
    let saving: Promise<ReceivedFile> | undefined;
    parser.on('file', (name, stream) => {
      if (name !== 'file' || saving) {
        stream.resume();
        return;
      }
      saving = save(stream, path, maxBytes);
      // Settled below, once the whole body is read; a failure (the limit) settles at once.
      saving.catch((error: unknown) => {
        request.unpipe(parser);
        reject(error as Error);
      });
    });
    parser.on('error', (error: Error) =>
      reject(new ValidationFailedError(`the multipart body is malformed: ${error.message}`)),
    );
    parser.on('close', () => {
      if (!saving)
        reject(new ValidationFailedError('file is missing: send the image as the multipart part named "file"'));
      else resolve(saving);
    });
    request.on('error', reject);
    request.pipe(parser);
  });
}

/**
 * Reads the upload into `directory`: the `file` part of a multipart body, or else the body itself. The
 * bytes go to disk as they arrive, so a connection holds one chunk of its upload in memory at a time; past
 * `maxBytes` (declared or streamed) the upload is refused with 413 at once, the rest of it unread.
 */
export async function receiveUpload(request: Request, directory: string, maxBytes: number): Promise<ReceivedFile> {
  const multipart = isMultipart(request);
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > maxBytes + (multipart ? MULTIPART_OVERHEAD_BYTES : 0)) throw new PhotoTooLargeError(maxBytes);
  const path = join(directory, 'upload');
  return multipart ? saveFilePart(request, path, maxBytes) : save(request, path, maxBytes);
}
