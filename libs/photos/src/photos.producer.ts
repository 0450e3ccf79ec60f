import { CoreSettings, withTimeout } from '@app/core';
import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { PHOTOS_QUEUE, PROCESS_PHOTO_JOB, ProcessPhotoJobData } from './photos.queue';

/**
 * Adds processing jobs. Never fails and never waits long for Redis: the photo is already stored, and one
 * that could not be enqueued is found by the worker's PhotosSweeper once Redis is back.
 */
@Injectable()
export class PhotosProducer {
  private readonly logger = new Logger(PhotosProducer.name);
  private redisDown = false;

  constructor(
    @InjectQueue(PHOTOS_QUEUE) private readonly queue: Queue<ProcessPhotoJobData>,
    private readonly core: CoreSettings,
  ) {
    // The connection reports outages itself; without a listener BullMQ would print every one again.
    queue.on('error', () => undefined);
  }

  async enqueue(photos: readonly ProcessPhotoJobData[]): Promise<void> {
    try {
      await withTimeout(
        Promise.all(photos.map((data) => this.queue.add(PROCESS_PHOTO_JOB, data, { jobId: data.photoId }))),
        this.core.REDIS_COMMAND_TIMEOUT_MS,
      );
      this.redisDown = false;
    } catch (error) {
      if (!this.redisDown) this.logger.warn(`cannot enqueue photos, the sweep will: ${(error as Error).message}`);
      this.redisDown = true;
    }
  }
}
