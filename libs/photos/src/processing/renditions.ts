import sharp from 'sharp';
import { InvalidImageError } from '../photos.errors';
import { FULL_LONGEST_SIDE, RENDITION_WIDTHS, RenditionSize } from '../photo-files';
import { MAX_PIXELS } from './image-checks';

export interface Rendition {
  size: RenditionSize;
  bytes: Buffer;
  extension: 'jpg' | 'webp';
  contentType: string;
  width: number;
  height: number;
}

/**
 * The four renditions of an upload. The upload is decoded once, turned upright (its orientation applied),
 * converted to sRGB and scaled to `full`, as raw pixels; every rendition is encoded from those pixels.
 * Nothing of the upload but its pixels reaches them: sharp writes no metadata unless asked, so no Exif,
 * XMP, IPTC, comment or text block, and no colour profile (the pixels are sRGB, the web's default).
 * Opaque photos become JPEG; photos with transparency become WebP, which keeps it.
 */
export async function render(upload: Buffer): Promise<Rendition[]> {
  let full: { data: Buffer; info: sharp.OutputInfo };
  try {
    full = await sharp(upload, { limitInputPixels: MAX_PIXELS, failOn: 'warning' })
      .autoOrient()
      // Mitchell rather than sharp's default Lanczos: `full` is at most a slight reduction of a camera's photo,
      // where the two look alike, and Mitchell costs about a sixth less of the worker's CPU per photo.
      .resize(FULL_LONGEST_SIDE, FULL_LONGEST_SIDE, { fit: 'inside', withoutEnlargement: true, kernel: 'mitchell' })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw new InvalidImageError('the image does not decode');
  }
  const { width, height, channels } = full.info;
  const transparent = channels === 4;
  const encode = async (size: RenditionSize, targetWidth: number): Promise<Rendition> => {
    let image = sharp(full.data, { raw: { width, height, channels } });
    if (targetWidth < width) image = image.resize(targetWidth);
    image = transparent ? image.webp({ quality: 82 }) : image.jpeg({ quality: 82 });
    const { data, info } = await image.toBuffer({ resolveWithObject: true });
    return {
      size,
      bytes: data,
      extension: transparent ? 'webp' : 'jpg',
      contentType: transparent ? 'image/webp' : 'image/jpeg',
      width: info.width,
      height: info.height,
    };
  };
  return Promise.all([
    encode('small', RENDITION_WIDTHS.small),
    encode('medium', RENDITION_WIDTHS.medium),
    encode('large', RENDITION_WIDTHS.large),
    encode('full', width),
  ]);
}
