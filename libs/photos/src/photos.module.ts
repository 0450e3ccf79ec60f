import { queuePrefix, type RedisClient, RequestPathRedisModule, settingsModule } from '@app/core';
import { EventObjects, EventsModule } from '@app/events';
import { HttpSettings, OpenApiSettings } from '@app/http';
import { PetsModule, PhotoUrls } from '@app/pets';
import { BullModule } from '@nestjs/bullmq';
import { Global, Module } from '@nestjs/common';
import { MediaController } from './media.controller';
import { ConfiguredPhotoUrls, PetEventObjects } from './photo-urls';
import { PhotosController } from './photos.controller';
import { PhotosPersonalData } from './photos-personal-data.part';
import { PhotosProducer } from './photos.producer';
import { PHOTOS_QUEUE } from './photos.queue';
import { PhotosRepository } from './photos.repository';
import { PhotosService } from './photos.service';
import { PhotosSettings } from './photos.settings';
import { PhotoProcessing } from './processing/photo-processing.service';
import { photosProcessorProvider } from './processing/photos.processor';
import { PhotosSweeper } from './processing/photos.sweeper';
import { photoStorageProvider } from './storage/photo-storage.provider';
import { PHOTO_STORAGE } from './storage/photo-storage';

const DAY_SECONDS = 24 * 60 * 60;
const PHOTOS_QUEUE_REDIS = Symbol('PHOTOS_QUEUE_REDIS');
const PHOTOS_QUEUE_REDIS_MODULE = RequestPathRedisModule.provide(PHOTOS_QUEUE_REDIS, 'photos queue');

const PHOTOS_QUEUE_MODULE = BullModule.registerQueueAsync({
  name: PHOTOS_QUEUE,
  imports: [PHOTOS_QUEUE_REDIS_MODULE],
  inject: [PHOTOS_QUEUE_REDIS],
  useFactory: (redis: RedisClient) => ({
    connection: redis,
    prefix: queuePrefix(PHOTOS_QUEUE),
    defaultJobOptions: {
      // Finished jobs only serve inspection; the photo's row is the record.
      removeOnComplete: { age: DAY_SECONDS, count: 10_000 },
      removeOnFail: { age: 7 * DAY_SECONDS },
    },
  }),
});

/**
 * How photos' URLs are formed when a pet, a photo or an event is read, for every module of the app: libs/pets
 * and libs/events, below this library, ask for `PhotoUrls` and `EventObjects`.
 */
@Global()
@Module({
  imports: [settingsModule(PhotosSettings), settingsModule(HttpSettings), settingsModule(OpenApiSettings)],
  providers: [
    { provide: PhotoUrls, useClass: ConfiguredPhotoUrls },
    { provide: EventObjects, useClass: PetEventObjects },
  ],
  exports: [PhotoUrls, EventObjects],
})
class PhotoUrlsModule {}

/** Photos without HTTP or processing: their rows, their storage and their queue. */
@Module({
  imports: [
    PHOTOS_QUEUE_REDIS_MODULE,
    PHOTOS_QUEUE_MODULE,
    settingsModule(PhotosSettings),
    EventsModule,
    PetsModule,
    PhotoUrlsModule,
  ],
  providers: [PhotosRepository, PhotosService, PhotosProducer, photoStorageProvider, PhotosPersonalData],
  exports: [
    PhotosRepository,
    PhotosService,
    PhotosProducer,
    PHOTO_STORAGE,
    PHOTOS_QUEUE_MODULE,
    settingsModule(PhotosSettings),
  ],
})
class PhotosModule {}

/** `/v1/pets/{petId}/photos` and the renditions under `/media/`. */
@Module({
  imports: [PhotosModule],
  controllers: [PhotosController, MediaController],
})
export class PhotosHttpModule {}

/** Processing and the sweep. Imported by the worker app only. */
@Module({
  imports: [PhotosModule],
  providers: [PhotoProcessing, photosProcessorProvider, PhotosSweeper],
})
export class PhotosWorkerModule {}
