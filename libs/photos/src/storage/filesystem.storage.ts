import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { StoredFileMissingError } from '../photos.errors';
import type { PhotoStorage, StorageBody, StoredFileInfo, StoredFileStream } from './photo-storage';

const PAGE = 1000;

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/**
 * Files under one directory. Each is written beside its final name, flushed to disk, then renamed over it:
 * a rename is atomic, so a reader sees the whole file or none, and a crash leaves at worst a temporary
 * file, which the next write of that key does not mind and the sweep removes.
 */
export class FilesystemStorage implements PhotoStorage {
  private readonly root: string;

  constructor(directory: string) {
    this.root = resolve(directory);
  }

  async put(key: string, body: StorageBody): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${randomBytes(6).toString('hex')}.partial`;
    try {
      if (Buffer.isBuffer(body)) {
        const file = await open(temporary, 'w');
        try {
          await file.writeFile(body);
          await file.sync();
        } finally {
          await file.close();
        }
      } else {
        await copyFile(body.path, temporary);
        const file = await open(temporary, 'r+');
        await file.sync().finally(() => file.close());
      }
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async read(key: string): Promise<Buffer> {
    try {
      return await readFile(this.path(key));
    } catch (error) {
      if (isMissing(error)) throw new StoredFileMissingError(key);
      throw error;
    }
  }

  async open(key: string): Promise<StoredFileStream | undefined> {
    const path = this.path(key);
    try {
      const { size } = await stat(path);
      return { body: createReadStream(path), length: size };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async delete(keys: readonly string[]): Promise<void> {
    await Promise.all(keys.map((key) => rm(this.path(key), { force: true })));
  }

  async *list(prefix: string): AsyncIterable<StoredFileInfo[]> {
    let entries;
    try {
      entries = await readdir(this.path(prefix), { recursive: true, withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    const files = entries.filter((entry) => entry.isFile());
    for (let start = 0; start < files.length; start += PAGE) {
      const page = await Promise.all(
        files.slice(start, start + PAGE).map(async (entry) => {
          const path = join(entry.parentPath, entry.name);
          const modifiedAt = await stat(path).then(
            (stats) => stats.mtime,
            // Removed meanwhile: as new as can be, so that nobody removes it again.
            () => new Date(),
          );
          return { key: relative(this.root, path).split(sep).join('/'), modifiedAt };
        }),
      );
      yield page;
    }
  }

  /** The key's path under the root; keys are the service's own, but a key that would leave the root is refused. */
  private path(key: string): string {
    const path = resolve(this.root, key);
    if (path !== this.root && !path.startsWith(this.root + sep)) throw new Error(`key outside the storage: ${key}`);
    return path;
  }
}
