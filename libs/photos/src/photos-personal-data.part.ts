import { PersonalDataPart } from '@app/core';
import { Inject, Injectable } from '@nestjs/common';
import { PhotosRepository } from './photos.repository';
import { PHOTO_STORAGE, PhotoStorage } from './storage/photo-storage';

/**
 * The photos of an account's pets: the export shows them in its pets' records. Removing the pets (the pets'
 * part, erased before) removes their rows and lists their files for removal; this part deletes those files
 * from storage at once rather than at the next sweep, with whatever else is due.
 */
@Injectable()
export class PhotosPersonalData extends PersonalDataPart {
  readonly name = 'photos';
  readonly tables = ['photos'];
  override readonly erasedAfter = ['pets'];
  readonly sections = [];

  constructor(
    private readonly photos: PhotosRepository,
    @Inject(PHOTO_STORAGE) private readonly storage: PhotoStorage,
  ) {
    super();
  }

  async erase(_accountId: number, batchLimit: number): Promise<boolean> {
    return (await this.photos.removeDueFiles(batchLimit, (keys) => this.storage.delete(keys))) === batchLimit;
  }
}
