import { PeriodicTask } from '@app/core';
import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { ORIGINALS_PREFIX, photoIdOfKey, RENDITIONS_PREFIX } from '../photo-files';
import { PhotosProducer } from '../photos.producer';
import { PHOTOS_QUEUE, ProcessPhotoJobData } from '../photos.queue';
import { PhotosRepository } from '../photos.repository';
import { PhotosSettings } from '../photos.settings';
import { PHOTO_STORAGE, PhotoStorage, StoredFileInfo } from '../storage/photo-storage';

const BATCH = 500;

/**
 * Keeps the 202's promise and the storage clean, every PHOTO_SWEEP_INTERVAL_MS: enqueues photos left
 * `processing` without a job (accepted while Redis was away, or whose job was lost), fails those whose job
 * failed for good, and removes files no photo needs (the files of removed photos and pets, uploads already
 * rendered, uploads never recorded, partial writes). Only what is older than one interval is touched, so
 * uploads and jobs in flight are left alone. Every worker runs one; they may overlap, since enqueueing adds
 * no second job and removing a removed file is no error.
 */
@Injectable()
export class PhotosSweeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(PhotosSweeper.name);
  private readonly task = new PeriodicTask('photos sweep', this.logger, () => this.sweep());

  constructor(
    private readonly photos: PhotosRepository,
    private readonly producer: PhotosProducer,
    @InjectQueue(PHOTOS_QUEUE) private readonly queue: Queue<ProcessPhotoJobData>,
    @Inject(PHOTO_STORAGE) private readonly storage: PhotoStorage,
    private readonly settings: PhotosSettings,
  ) {}

  onApplicationBootstrap(): void {
    this.task.start(this.settings.PHOTO_SWEEP_INTERVAL_MS);
  }

  onModuleDestroy(): Promise<void> {
    return this.task.stop();
  }

  async sweep(): Promise<void> {
    await this.settleProcessing();
    for (const prefix of [ORIGINALS_PREFIX, RENDITIONS_PREFIX]) {
      for await (const page of this.storage.list(prefix)) await this.removeUnneeded(page);
    }
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

  private async removeUnneeded(files: StoredFileInfo[]): Promise<void> {
    const settledBefore = Date.now() - this.settings.PHOTO_SWEEP_INTERVAL_MS;
    const old = files.filter((file) => file.modifiedAt.getTime() < settledBefore);
    const ids = [...new Set(old.flatMap((file) => photoIdOfKey(file.key) ?? []))];
    const statuses = ids.length > 0 ? await this.photos.statuses(ids) : new Map<string, string>();
    const unneeded = old
      .filter((file) => {
        const photoId = photoIdOfKey(file.key);
        const status = photoId && statuses.get(photoId);
        if (!status || file.key.endsWith('.partial')) return true;
        return file.key.startsWith(ORIGINALS_PREFIX) && status !== 'processing';
      })
      .map((file) => file.key);
    if (unneeded.length === 0) return;
    await this.storage.delete(unneeded);
    this.logger.log(`removed ${unneeded.length} files no photo needs`);
  }
}
