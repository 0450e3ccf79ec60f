import type { FactoryProvider } from '@nestjs/common';
import { PhotosSettings } from '../photos.settings';
import { FilesystemStorage } from './filesystem.storage';
import { PHOTO_STORAGE, PhotoStorage } from './photo-storage';
import { S3Storage } from './s3.storage';

/** The storage PHOTO_STORAGE names. */
export const photoStorageProvider: FactoryProvider<PhotoStorage> = {
  provide: PHOTO_STORAGE,
  inject: [PhotosSettings],
  useFactory: (settings: PhotosSettings) =>
    settings.PHOTO_STORAGE === 's3' ? new S3Storage(settings) : new FilesystemStorage(settings.PHOTO_STORAGE_DIR),
};
