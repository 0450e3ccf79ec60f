import { CoreSettings, EnqueueOutages } from '@app/core';
import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { PHOTOS_QUEUE, PROCESS_PHOTO_JOB, ProcessPhotoJobData } from './photos.queue';

/**
 * Adds processing jobs. Never fails and never waits long for Redis: the photo is already stored, and one
 * that could not be enqueued is found by the worker's PhotosSweeper once Redis is back.
 */
@Injectable()
export class PhotosProducer {
  private readonly outages: EnqueueOutages;

  constructor(
    @InjectQueue(PHOTOS_QUEUE) private readonly queue: Queue<ProcessPhotoJobData>,
    private readonly core: CoreSettings,
  ) {
    this.outages = new EnqueueOutages(queue, PhotosProducer.name, 'photos', 'the sweep');
  }

  async enqueue(photos: readonly ProcessPhotoJobData[]): Promise<void> {
    await this.outages.enqueue(
      () => Promise.all(photos.map((data) => this.queue.add(PROCESS_PHOTO_JOB, data, { jobId: data.photoId }))),
      this.core.REDIS_COMMAND_TIMEOUT_MS,
    );
  }
}
