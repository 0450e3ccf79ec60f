export * from './dto/photo.dto';
export { MEDIA_ROUTE } from './media.controller';
export * from './photo-files';
export { PHOTO_UPLOAD_ROUTE } from './photos.controller';
export * from './photos.errors';
export * from './photos.module';
export * from './photos.queue';
export * from './photos.settings';
