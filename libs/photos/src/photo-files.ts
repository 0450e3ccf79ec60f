import { createHash, randomBytes } from 'node:crypto';

export const RENDITION_SIZES = ['small', 'medium', 'large', 'full'] as const;
export type RenditionSize = (typeof RENDITION_SIZES)[number];

/** The width of each rendition; `full` is bounded on its longest side instead. */
export const RENDITION_WIDTHS: Record<Exclude<RenditionSize, 'full'>, number> = { small: 100, medium: 300, large: 600 };
export const FULL_LONGEST_SIDE = 2048;

/** Where uploads wait for the worker; never served. */
const ORIGINALS_PREFIX = 'originals/';
/** Where renditions live; the only files served. */
const RENDITIONS_PREFIX = 'renditions/';

/** `pho_` and 24 base64url characters (144 bits from the CSPRNG): ids never collide. */
export function newPhotoId(): string {
  return `pho_${randomBytes(18).toString('base64url')}`;
}

export function originalKey(photoId: string): string {
  return `${ORIGINALS_PREFIX}${photoId}`;
}

/**
 * A rendition's key names its photo and a digest of its bytes: a new upload is a new URL (so URLs can be
 * cached for ever), and a job run again after a crash writes the same keys over the same bytes.
 */
export function renditionKey(photoId: string, size: RenditionSize, bytes: Buffer, extension: string): string {
  const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
  return `${RENDITIONS_PREFIX}${photoId}/${size}-${digest}.${extension}`;
}

const RENDITION_KEY = /^renditions\/(pho_[0-9A-Za-z_-]{24})\/(?:small|medium|large|full)-([0-9a-f]{32})\.(jpg|webp)$/;
const MEDIA_TYPES: Record<string, string> = { jpg: 'image/jpeg', webp: 'image/webp' };

/** What a served rendition's key tells: its digest (the ETag) and media type; undefined for any other key. */
export function parseRenditionKey(key: string): { digest: string; contentType: string } | undefined {
  const match = RENDITION_KEY.exec(key);
  return match ? { digest: match[2]!, contentType: MEDIA_TYPES[match[3]!]! } : undefined;
}

/** How every rendition is served: its URL names its bytes, so it never changes. */
export const RENDITION_CACHE_CONTROL = 'public, max-age=31536000, immutable';
