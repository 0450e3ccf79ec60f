/** The BullMQ queue that carries photo processing, and its job name: used nowhere else as literals. */
export const PHOTOS_QUEUE = 'photos';
export const PROCESS_PHOTO_JOB = 'process';

/** Ids only: the upload's bytes stay in storage, never in Redis. The job id is the photo id. */
export interface ProcessPhotoJobData {
  photoId: string;
  petId: number;
}
