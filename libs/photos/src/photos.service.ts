import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceUnavailableError } from '@app/core';
import { sqlState } from '@app/database';
import { NotListerError, PetNotFoundError } from '@app/pets';
import { Inject, Injectable } from '@nestjs/common';
import type { PhotoDto } from './dto/photo.dto';
import { originalKey, newPhotoId } from './photo-files';
import { PhotoNotFoundError, TooManyPhotosError } from './photos.errors';
import { PhotosProducer } from './photos.producer';
import { PhotosRepository } from './photos.repository';
import { checkImage } from './processing/image-checks';
import { PHOTO_STORAGE, PhotoStorage } from './storage/photo-storage';
import type { ReceivedFile } from './upload-body';

/** Photos of one pet, whatever their status. */
const MAX_PHOTOS_PER_PET = 10;

const FOREIGN_KEY_VIOLATION = '23503';
const MEDIA_TYPES = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' } as const;

/** The photos' rules; PhotosRepository holds their SQL, PhotoStorage their files. */
@Injectable()
export class PhotosService {
  constructor(
    private readonly photos: PhotosRepository,
    private readonly producer: PhotosProducer,
    @Inject(PHOTO_STORAGE) private readonly storage: PhotoStorage,
  ) {}

  /**
   * Accepts an upload by the pet's lister: checked before its bytes are read (the pet, its lister, its
   * number of photos), received into a temporary file by `receive`, checked as an image, stored, then
   * recorded and enqueued. When this resolves, the photo is durable: its original is in storage and its
   * row committed, so it reaches `ready` or `failed` whatever stops afterwards.
   */
  async upload(
    petId: number,
    accountId: number,
    receive: (directory: string) => Promise<ReceivedFile>,
  ): Promise<PhotoDto> {
    await this.listerOnly(petId, accountId, true);
    const directory = await mkdtemp(join(tmpdir(), 'photo-upload-'));
    try {
      const received = await receive(directory);
      const format = await checkImage(received.path);
      const photoId = newPhotoId();
      const key = originalKey(photoId);
      // Recorded before it is written: a crash before the photo's row commits leaves no orphan.
      await this.photos.markPending(photoId, [key]);
      try {
        await this.storage.put(key, received, { contentType: MEDIA_TYPES[format] });
      } catch {
        throw new ServiceUnavailableError('The photo storage cannot be reached; retry shortly.');
      }
      const photo = await this.insert(photoId, petId, key);
      await this.producer.enqueue([{ photoId, petId }]);
      return photo;
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }

  /** The ready photos for every key; all of them for the pet's lister. */
  async list(petId: number, accountId: number): Promise<PhotoDto[]> {
    const pet = await this.photos.findPet(petId);
    if (!pet) throw new PetNotFoundError(petId);
    return this.photos.list(petId, pet.listerAccountId !== accountId);
  }

  /** A photo not yet ready (or failed) is the lister's alone. */
  async get(petId: number, photoId: string, accountId: number): Promise<PhotoDto> {
    const photo = await this.photos.find(petId, photoId);
    if (!photo) throw new PhotoNotFoundError(photoId);
    if (photo.status !== 'ready' && (await this.photos.findPet(petId))?.listerAccountId !== accountId) {
      throw new PhotoNotFoundError(photoId);
    }
    return photo;
  }

  async move(petId: number, photoId: string, accountId: number, position: number): Promise<PhotoDto> {
    await this.listerOnly(petId, accountId);
    const moved = await this.photos.move(petId, photoId, position);
    if (!moved) throw new PhotoNotFoundError(photoId);
    return moved;
  }

  /** Removes the photo; its files go with the next sweep (PhotosSweeper), listed by the removal. */
  async remove(petId: number, photoId: string, accountId: number): Promise<void> {
    await this.listerOnly(petId, accountId);
    if (!(await this.photos.remove(petId, photoId))) throw new PhotoNotFoundError(photoId);
  }

  private async listerOnly(petId: number, accountId: number, adding = false): Promise<void> {
    const pet = await this.photos.findPet(petId);
    if (!pet) throw new PetNotFoundError(petId);
    if (pet.listerAccountId !== accountId) throw new NotListerError(petId);
    if (adding && pet.photoCount >= MAX_PHOTOS_PER_PET) throw new TooManyPhotosError(petId, MAX_PHOTOS_PER_PET);
  }

  private async insert(photoId: string, petId: number, upload: string): Promise<PhotoDto> {
    let photo: PhotoDto | undefined;
    try {
      photo = await this.photos.insert(photoId, petId, upload, MAX_PHOTOS_PER_PET);
    } catch (error) {
      if (sqlState(error) === FOREIGN_KEY_VIOLATION) throw new PetNotFoundError(petId);
      throw error;
    }
    // The upload left behind stays marked pending: the sweep removes it.
    if (!photo) throw new TooManyPhotosError(petId, MAX_PHOTOS_PER_PET);
    return photo;
  }
}
