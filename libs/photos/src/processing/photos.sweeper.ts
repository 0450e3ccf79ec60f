import { PeriodicJob } from '@app/core';
import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { PhotosProducer } from '../photos.producer';
import { PHOTOS_QUEUE, ProcessPhotoJobData } from '../photos.queue';
import { PhotosRepository } from '../photos.repository';
import { PhotosSettings } from '../photos.settings';
import { PHOTO_STORAGE, PhotoStorage } from '../storage/photo-storage';

const BATCH = 500;

/**
 * Keeps the 202's promise and the storage clean, every PHOTO_SWEEP_INTERVAL_MS: enqueues photos left
 * `processing` without a job (accepted while Redis was away, or whose job was lost), fails those whose job
 * failed for good, and removes the files listed in photo_file_removals once due (those of removed photos
 * and pets, uploads already rendered, files written for a row that never committed) and unfinished writes.
 * Only what is older than one interval is touched, so uploads and jobs in flight are left alone. A periodic
 * job: one run per tick across the workers. Runs may overlap harmlessly, since enqueueing adds no second job
 * and each listed file is taken by one run.
 */
@Injectable()
export class PhotosSweeper extends PeriodicJob {
  readonly name = 'photos-sweep';
  /** A worker that was down starts by enqueueing the photos accepted meanwhile and removing what fell due. */
  override readonly runsAtStart = true;
  private readonly logger = new Logger(PhotosSweeper.name);

  constructor(
    private readonly photos: PhotosRepository,
    private readonly producer: PhotosProducer,
    @InjectQueue(PHOTOS_QUEUE) private readonly queue: Queue<ProcessPhotoJobData>,
    @Inject(PHOTO_STORAGE) private readonly storage: PhotoStorage,
    private readonly settings: PhotosSettings,
  ) {
    super();
  }

  everyMs(): number {
    return this.settings.PHOTO_SWEEP_INTERVAL_MS;
  }

  async run(): Promise<void> {
    await this.settleProcessing();
    let removed = 0;
    let taken: number;
    do {
      taken = await this.photos.removeDueFiles(BATCH, (keys) => this.storage.delete(keys));
      removed += taken;
    } while (taken === BATCH && !this.stopped);
    if (removed > 0) this.logger.log(`removed ${removed} files no photo needs`);
    await this.storage.removeAbandonedWrites(new Date(Date.now() - this.settings.PHOTO_SWEEP_INTERVAL_MS));
  }

  private async settleProcessing(): Promise<void> {
    const jobless: ProcessPhotoJobData[] = [];
    for (const { id, petId } of await this.photos.findProcessing(this.settings.PHOTO_SWEEP_INTERVAL_MS, BATCH)) {
      const job = await this.queue.getJob(id);
      if (!job) jobless.push({ photoId: id, petId });
      else if (await job.isFailed()) await this.photos.markFailed(id, 'processing kept stopping');
      else if (await job.isCompleted()) {
        // Completed without settling the photo (it was not processing when the job read it): run it again.
        await job.remove();
        jobless.push({ photoId: id, petId });
      }
    }
    if (jobless.length > 0) {
      await this.producer.enqueue(jobless);
      this.logger.log(`enqueued ${jobless.length} photos left processing`);
    }
  }
}
