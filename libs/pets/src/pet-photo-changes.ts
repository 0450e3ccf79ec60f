import { EventsRecorder } from '@app/events';
import { Injectable } from '@nestjs/common';
import { petEvents } from './pet-events';
import { PetPhotosRepository } from './pet-photos.repository';

/**
 * How libs/photos changes a pet along with its photos, in the transaction that changes them: `lock` first
 * (the change clock, then the pet's row), then `photosChanged` once the pet's ready photos changed.
 */
@Injectable()
export class PetPhotoChanges {
  constructor(
    private readonly pets: PetPhotosRepository,
    private readonly events: EventsRecorder,
  ) {}

  lock(petId: number): Promise<void> {
    return this.pets.lock(petId);
  }

  /** Rewrites the pet's copy of its ready photos, `updated_at` from the clock, and records `pet.updated`. */
  async photosChanged(petId: number): Promise<void> {
    const pet = await this.pets.copyReadyPhotos(petId);
    if (pet) await this.events.recordAll(petEvents('pet.updated', pet));
  }
}
