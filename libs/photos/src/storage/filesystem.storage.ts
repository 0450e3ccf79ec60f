import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, open, readdir, readFile, rename, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { StoredFileMissingError } from '../photos.errors';
import type { PhotoStorage, StorageBody, StoredFileStream } from './photo-storage';

/** Where files are written before they are renamed into place: beside them, on the same filesystem. */
const WRITING_DIRECTORY = '.writing';

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/**
 * Files under one directory. Each is written to a temporary file in `.writing/`, flushed to disk, then
 * renamed to its key: a rename is atomic, so a reader sees the whole file or none, and a crash leaves at
 * worst a temporary file there, which the sweep removes (the only directory it ever reads).
 */
export class FilesystemStorage implements PhotoStorage {
  private readonly root: string;

  constructor(directory: string) {
    this.root = resolve(directory);
  }

  async put(key: string, body: StorageBody): Promise<void> {
    const path = this.path(key);
    const writing = join(this.root, WRITING_DIRECTORY);
    await mkdir(writing, { recursive: true });
    const temporary = join(writing, randomBytes(12).toString('hex'));
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
      await mkdir(dirname(path), { recursive: true });
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

  /** Removes the files, and the directory of a photo's renditions once it is empty. */
  async delete(keys: readonly string[]): Promise<void> {
    await Promise.all(keys.map((key) => rm(this.path(key), { force: true })));
    const photoDirectories = new Set(keys.filter((key) => key.split('/').length > 2).map((key) => dirname(key)));
    for (const directory of photoDirectories) {
      await rmdir(this.path(directory)).catch((error: NodeJS.ErrnoException) => {
        // Files written there meanwhile (a job run again) keep it.
        if (!isMissing(error) && error.code !== 'ENOTEMPTY') throw error;
      });
    }
  }

  async removeAbandonedWrites(before: Date): Promise<void> {
    const writing = join(this.root, WRITING_DIRECTORY);
    let names: string[];
    try {
      names = await readdir(writing);
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for (const name of names) {
      const path = join(writing, name);
      // Renamed into place or removed meanwhile: nothing to do.
      const modified = await stat(path).then(
        (stats) => stats.mtime,
        () => undefined,
      );
      if (modified && modified < before) await rm(path, { force: true });
    }
  }

  /** The key's path under the root; keys are the service's own, but a key that would leave the root is refused. */
  private path(key: string): string {
    const path = resolve(this.root, key);
    if (path !== this.root && !path.startsWith(this.root + sep)) throw new Error(`key outside the storage: ${key}`);
    return path;
  }
}
