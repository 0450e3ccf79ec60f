import type { PetDto } from './dto/pet.dto';
import type { PhotoUrlsDto, RenditionKeys, StoredPetPhoto } from './dto/pet-photo.dto';

/** The Pet as rows and events keep it: its photos by their renditions' storage keys. */
export type PetAsStored = Omit<PetDto, 'photos'> & { photos: StoredPetPhoto[] };

/**
 * Forms a rendition's URL from its storage key when a pet or photo is read, so that URLs follow the media's
 * public base as it is configured now. Provided by libs/photos, which knows where renditions are served.
 */
export abstract class PhotoUrls {
  abstract of(renditions: RenditionKeys): PhotoUrlsDto;

  /** The Pet as clients and endpoints receive it: each photo with its URLs. */
  servedPet(pet: PetAsStored): PetDto {
    return {
      ...pet,
      photos: pet.photos.map(({ renditions, ...photo }) => ({ ...photo, urls: this.of(renditions) })),
    };
  }
}
