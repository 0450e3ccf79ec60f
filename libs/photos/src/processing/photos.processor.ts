import { configuredProcessor } from '@app/core';
import { OnWorkerEvent, WorkerHost } from '@nestjs/bullmq';
import { BeforeApplicationShutdown, Logger } from '@nestjs/common';
import { DelayedError, Job } from 'bullmq';
import { PHOTOS_QUEUE, ProcessPhotoJobData } from '../photos.queue';
import { PhotosSettings } from '../photos.settings';
import { PhotoProcessing, ProcessingOutcome } from './photo-processing.service';

/** Runs processing jobs; provided by `photosProcessorProvider`, in the worker app only. */
class PhotosProcessor extends WorkerHost implements BeforeApplicationShutdown {
  private readonly logger = new Logger(PhotosProcessor.name);

  constructor(
    private readonly processing: PhotoProcessing,
    private readonly settings: PhotosSettings,
  ) {
    super();
  }

  async process(job: Job<ProcessPhotoJobData>, token?: string): Promise<ProcessingOutcome> {
    try {
      return await this.processing.process(job.data.photoId, job.data.petId);
    } catch (error) {
      // Storage or PostgreSQL away: the photo waits for them, however long, rather than fail when attempts run
      // out (the 202 promised it an end). An image that cannot be rendered does not get here: it failed the photo.
      if (!token) throw error;
      this.logger.warn({ photoId: job.data.photoId }, `processing put off: ${(error as Error).message}`);
      await job.moveToDelayed(Date.now() + this.settings.PHOTO_RETRY_DELAY_MS, token);
      throw new DelayedError();
    }
  }

  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.logger.warn(`worker: ${error.message}`);
  }

  /** Takes no new jobs and lets running ones finish while PostgreSQL and Redis are still open. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.worker.close();
  }
}

/**
 * The processor's worker options come from the settings. A job whose processing keeps killing workers fails
 * after a few stalls, and the sweep then fails its photo.
 */
export const photosProcessorProvider = configuredProcessor({
  processor: PhotosProcessor,
  queue: PHOTOS_QUEUE,
  inject: [PhotoProcessing, PhotosSettings],
  configure: (processing: PhotoProcessing, settings: PhotosSettings) => ({
    worker: {
      concurrency: settings.PHOTO_WORKER_CONCURRENCY,
      lockDuration: settings.PHOTO_WORKER_LOCK_DURATION_MS,
      stalledInterval: settings.PHOTO_WORKER_LOCK_DURATION_MS,
      maxStalledCount: 3,
    },
    args: [processing, settings] as [PhotoProcessing, PhotosSettings],
  }),
});
