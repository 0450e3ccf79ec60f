import type { PhotoUrlsDto } from '@app/pets';
import { Inject, Injectable } from '@nestjs/common';
import { originalKey, RENDITION_CACHE_CONTROL, renditionKey } from '../photo-files';
import { InvalidImageError, StoredFileMissingError } from '../photos.errors';
import { PhotosRepository } from '../photos.repository';
import { PhotosSettings } from '../photos.settings';
import { PHOTO_STORAGE, PhotoStorage } from '../storage/photo-storage';
import { render } from './renditions';

export type ProcessingOutcome = 'ready' | 'failed' | 'skipped';

/**
 * Turns a processing photo's upload into its renditions. Safe to run again at any point (after a crash,
 * on two workers at once): the renditions' keys are their digests, and the status changes are guarded.
 * A failure of storage or PostgreSQL is thrown, for the job to be tried again; only an image that does not
 * decode, or an upload that is gone, fails the photo.
 */
@Injectable()
export class PhotoProcessing {
  constructor(
    private readonly photos: PhotosRepository,
    @Inject(PHOTO_STORAGE) private readonly storage: PhotoStorage,
    private readonly settings: PhotosSettings,
  ) {}

  async process(photoId: string, petId: number): Promise<ProcessingOutcome> {
    const photo = await this.photos.findById(photoId);
    if (photo?.status !== 'processing') return 'skipped';
    let upload: Buffer;
    try {
      upload = await this.storage.read(originalKey(photoId));
    } catch (error) {
      if (!(error instanceof StoredFileMissingError)) throw error;
      await this.photos.markFailed(photoId, 'the upload was lost');
      return 'failed';
    }
    let renditions;
    try {
      renditions = await render(upload);
    } catch (error) {
      if (!(error instanceof InvalidImageError)) throw error;
      await this.photos.markFailed(photoId, 'the image does not decode');
      return 'failed';
    }
    const keys = renditions.map((rendition) =>
      renditionKey(photoId, rendition.size, rendition.bytes, rendition.extension),
    );
    // Recorded before they are written: a crash before `ready`, or a photo removed meanwhile, leaves no orphan.
    // A photo removed while it was rendered gets none written.
    if (!(await this.photos.markRenditionsPending(photoId, keys))) return 'skipped';
    const urls: Partial<PhotoUrlsDto> = {};
    for (const [index, rendition] of renditions.entries()) {
      await this.storage.put(keys[index]!, rendition.bytes, {
        contentType: rendition.contentType,
        cacheControl: RENDITION_CACHE_CONTROL,
      });
      urls[rendition.size] = `${this.settings.PHOTO_PUBLIC_BASE_URL}/${keys[index]}`;
    }
    const full = renditions.find((rendition) => rendition.size === 'full')!;
    const { width, height } = full;
    // The upload, once rendered, is only what the photo must not reveal: markReady lists it for removal.
    if (await this.photos.markReady(petId, photoId, { width, height, urls: urls as PhotoUrlsDto }, keys))
      return 'ready';
    // Removed while its renditions were written: they go with the next sweep, as its other files do.
    await this.photos.removeSoon(keys);
    return 'skipped';
  }
}
