import { open } from 'node:fs/promises';
import sharp from 'sharp';
import { InvalidImageError } from '../photos.errors';

/** Larger images are refused, whatever their byte size (a few KiB of PNG can declare billions). */
export const MAX_PIXELS = 50_000_000;

export type ImageFormat = 'jpeg' | 'png' | 'webp';

/** The format the first bytes announce, whatever the declared type says. */
export function sniffFormat(head: Buffer): ImageFormat | undefined {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return undefined;
}

async function headOf(path: string): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(16), 0, 16, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/**
 * Refuses, with InvalidImageError, a file that is not a JPEG, PNG or WebP image that decodes, of at most
 * MAX_PIXELS. The header's dimensions are checked before any pixel is decoded; the image is then decoded
 * whole, but into a thumbnail: JPEG and WebP decode straight to a fraction of their size, so checking a
 * photo costs the api a fraction of what rendering it costs the worker.
 */
export async function checkImage(path: string): Promise<ImageFormat> {
  const format = sniffFormat(await headOf(path));
  if (!format) throw new InvalidImageError('not a JPEG, PNG or WebP image');
  let metadata: sharp.Metadata;
  try {
    metadata = await sharp(path, { limitInputPixels: false }).metadata();
  } catch {
    throw new InvalidImageError('the image does not decode');
  }
  // A file that starts as one format but decodes as another (a polyglot) is refused too.
  if (metadata.format !== format) throw new InvalidImageError('not a JPEG, PNG or WebP image');
  if ((metadata.width ?? 0) * (metadata.height ?? 0) > MAX_PIXELS) {
    throw new InvalidImageError(`over ${MAX_PIXELS / 1_000_000} megapixels`);
  }
  try {
    await sharp(path, { limitInputPixels: MAX_PIXELS, failOn: 'warning', sequentialRead: true })
      .resize(64, 64, { fit: 'inside' })
      .raw()
      .toBuffer();
  } catch {
    throw new InvalidImageError('the image does not decode');
  }
  return format;
}
