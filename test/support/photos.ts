import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import S3rver from '@20minutes/s3rver';
import sharp from 'sharp';
import type TestAgent from 'supertest/lib/agent';
import { onFreePorts, waitFor } from './processes';

export const S3_TEST_BUCKET = 'pet-photos';
/** s3rver's fixed credentials. */
const S3_CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

/**
 * A real S3-protocol server of the test's own (s3rver, in this process) on a free port, over a temporary
 * directory: stopped and started again at will, keeping its objects.
 */
export class ThrowawayS3 {
  private server?: S3rver;
  private readonly dir = mkdtempSync(join(tmpdir(), 's3-photos-'));
  port = 0;

  /** The settings that point the service at it. */
  get env(): Record<string, string> {
    return {
      PHOTO_STORAGE: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${this.port}`,
      S3_BUCKET: S3_TEST_BUCKET,
      S3_REGION: 'us-east-1',
      ...S3_CREDENTIALS,
    };
  }

  async create(): Promise<this> {
    await onFreePorts(1, async (port) => {
      this.port = port;
      await this.start();
    });
    return this;
  }

  async start(): Promise<void> {
    this.server = new S3rver({
      port: this.port,
      address: '127.0.0.1',
      silent: true,
      directory: this.dir,
      configureBuckets: [{ name: S3_TEST_BUCKET }],
    });
    await this.server.run();
  }

  async stop(): Promise<void> {
    await this.server?.close();
    this.server = undefined;
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Names of the blocks in an image file that say anything beyond its pixels and their encoding. */
export function metadataBlocks(file: Buffer): string[] {
  if (file[0] === 0xff && file[1] === 0xd8) return jpegMetadata(file);
  if (file.toString('latin1', 1, 4) === 'PNG') return pngMetadata(file);
  if (file.toString('latin1', 0, 4) === 'RIFF') return webpMetadata(file);
  throw new Error('not a JPEG, PNG or WebP file');
}

/** Segments up to the scan: APP0 (JFIF) and APP2 (ICC profile) describe the encoding; any other APPn or COM does not. */
function jpegMetadata(file: Buffer): string[] {
  const found: string[] = [];
  let offset = 2;
  while (offset + 4 <= file.length) {
    if (file[offset] !== 0xff) throw new Error(`no JPEG marker at ${offset}`);
    const marker = file[offset + 1]!;
    if (marker === 0xda) break;
    const length = file.readUInt16BE(offset + 2);
    const data = file.subarray(offset + 4, offset + 2 + length);
    if (marker === 0xfe) found.push('COM');
    else if (marker >= 0xe0 && marker <= 0xef && marker !== 0xe0 && marker !== 0xe2) {
      const label = data.toString('latin1', 0, 30).split('\0')[0];
      found.push(`APP${marker - 0xe0}:${label}`);
    }
    offset += 2 + length;
  }
  return found;
}

const PNG_METADATA_CHUNKS = new Set(['eXIf', 'tEXt', 'iTXt', 'zTXt', 'tIME']);

function pngMetadata(file: Buffer): string[] {
  const found: string[] = [];
  for (let offset = 8; offset + 8 <= file.length;) {
    const length = file.readUInt32BE(offset);
    const type = file.toString('latin1', offset + 4, offset + 8);
    if (PNG_METADATA_CHUNKS.has(type)) found.push(type);
    offset += 12 + length;
  }
  return found;
}

function webpMetadata(file: Buffer): string[] {
  const found: string[] = [];
  for (let offset = 12; offset + 8 <= file.length;) {
    const type = file.toString('latin1', offset, offset + 4);
    const length = file.readUInt32LE(offset + 4);
    if (type === 'EXIF' || type === 'XMP ') found.push(type.trim());
    offset += 8 + length + (length % 2);
  }
  return found;
}

/** An XMP packet that names a place: what a phone's photo carries. */
const XMP = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="51,30.0N" exif:GPSLongitude="0,7.5W"/>
</rdf:RDF></x:xmpmeta>`;

/** EXIF with a GPS position (sharp writes IFD3 as the GPS directory); the rotation is set beside it. */
const EXIF = {
  IFD0: { Make: 'Phone', Model: 'Foster Home Camera' },
  IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 30/1' },
};

function photo(width: number, height: number, alpha = false) {
  return sharp({
    create: { width, height, channels: alpha ? 4 : 3, background: { r: 200, g: 120, b: 40, alpha: alpha ? 0.5 : 1 } },
  });
}

/** A JPEG as a phone writes it, turned on its side: EXIF with GPS, XMP, and a comment spliced in after SOI. */
export async function jpegWithLocation(width = 800, height = 600): Promise<Buffer> {
  const jpeg = await photo(width, height)
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExif(EXIF)
    .withXmp(XMP)
    .toBuffer();
  const comment = Buffer.from('taken at 12 Foster Lane');
  const segment = Buffer.concat([Buffer.from([0xff, 0xfe]), u16(comment.length + 2), comment]);
  return Buffer.concat([jpeg.subarray(0, 2), segment, jpeg.subarray(2)]);
}

/** A PNG turned on its side, with EXIF (GPS), XMP (compressed text) and a text chunk naming the place. */
export async function pngWithLocation(width = 640, height = 480, alpha = false): Promise<Buffer> {
  const png = await photo(width, height, alpha)
    .png()
    .withMetadata({ orientation: 6 })
    .withExif(EXIF)
    .withXmp(XMP)
    .toBuffer();
  return withPngChunk(png, 'tEXt', Buffer.from('Location\0 12 Foster Lane'));
}

export function tinyJpeg(): Promise<Buffer> {
  return photo(64, 48).jpeg().toBuffer();
}

function u16(value: number): Buffer {
  const bytes = Buffer.alloc(2);
  bytes.writeUInt16BE(value);
  return bytes;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]);
}

/** The chunk inserted right after IHDR. */
function withPngChunk(png: Buffer, type: string, data: Buffer): Buffer {
  const afterHeader = 8 + 12 + png.readUInt32BE(8);
  return Buffer.concat([png.subarray(0, afterHeader), pngChunk(type, data), png.subarray(afterHeader)]);
}

/** A small PNG that declares `width`×`height` pixels: its few rows of zeros deflate to almost nothing. */
export function pngDeclaring(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = deflateSync(Buffer.alloc((width * 3 + 1) * 4));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', rows),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export function gif(): Promise<Buffer> {
  return photo(32, 32).gif().toBuffer();
}

export interface TestPhoto {
  id: string;
  petId: number;
  status: string;
  position: number;
  width?: number;
  height?: number;
  urls?: Record<'small' | 'medium' | 'large' | 'full', string>;
  error?: string;
}

/** Waits until the lister sees the photo leave `processing`, and returns it. */
export async function waitForProcessed(
  http: TestAgent,
  auth: Record<string, string>,
  location: string,
  timeoutMs = 60000,
): Promise<TestPhoto> {
  let photo: TestPhoto | undefined;
  await waitFor(
    async () => {
      photo = (await http.get(location).set(auth).expect(200)).body as TestPhoto;
      return photo.status !== 'processing';
    },
    timeoutMs,
    `${location} to be processed`,
  );
  return photo!;
}
