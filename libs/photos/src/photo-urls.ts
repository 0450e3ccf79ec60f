import { EventObjects, type EventType } from '@app/events';
import { HttpSettings, OpenApiSettings, publicAddresses } from '@app/http';
import { type PetAsStored, PhotoUrls, type PhotoUrlsDto, type RenditionKeys } from '@app/pets';
import { Injectable } from '@nestjs/common';
import { MEDIA_ROUTE } from './media.controller';
import { RENDITION_SIZES } from './photo-files';
import { PhotosSettings } from './photos.settings';

/**
 * Where renditions are served when `PHOTO_PUBLIC_BASE_URL` is not set: the api's own `/media`, beside the
 * `/v1` of the address its documents publish (`PUBLIC_BASE_URL_PRODUCTION`, else `localhost` at `PORT`).
 */
function defaultMediaBaseUrl(http: HttpSettings, openApi: OpenApiSettings): string {
  const api = publicAddresses(openApi, http).PUBLIC_BASE_URL_PRODUCTION;
  return new URL(`../${MEDIA_ROUTE}`, `${api.replace(/\/+$/, '')}/`).toString();
}

/**
 * Forms renditions' URLs from their keys with the base configured now (rows and events keep the keys): a
 * changed `PHOTO_PUBLIC_BASE_URL` or `PORT` moves every photo's URLs at the next start.
 */
@Injectable()
export class ConfiguredPhotoUrls extends PhotoUrls {
  private readonly base: string;

  constructor(settings: PhotosSettings, http: HttpSettings, openApi: OpenApiSettings) {
    super();
    this.base = (settings.PHOTO_PUBLIC_BASE_URL ?? defaultMediaBaseUrl(http, openApi)).replace(/\/+$/, '');
  }

  of(renditions: RenditionKeys): PhotoUrlsDto {
    return Object.fromEntries(
      RENDITION_SIZES.map((size) => [size, `${this.base}/${renditions[size]}`]),
    ) as unknown as PhotoUrlsDto;
  }
}

/** The events whose object is a pet (and the alerts that carry one), served with their photos' URLs. */
@Injectable()
export class PetEventObjects extends EventObjects {
  constructor(private readonly urls: PhotoUrls) {
    super();
  }

  served(type: EventType, object: Record<string, unknown>): Record<string, unknown> {
    if (type.startsWith('pet.')) return { ...this.urls.servedPet(object as unknown as PetAsStored) };
    if (type === 'saved_search.matched') {
      return { ...object, pet: this.urls.servedPet(object.pet as PetAsStored) };
    }
    return object;
  }
}
