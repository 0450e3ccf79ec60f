import { loadSettings } from '@app/core';
import { HttpSettings, OpenApiSettings } from '@app/http';
import { ConfiguredPhotoUrls, PetEventObjects } from './photo-urls';
import { PhotosSettings } from './photos.settings';

const KEYS = {
  small: 'renditions/pho_x/small-1.jpg',
  medium: 'renditions/pho_x/medium-2.jpg',
  large: 'renditions/pho_x/large-3.jpg',
  full: 'renditions/pho_x/full-4.jpg',
};

function urlsWith(variables: Record<string, string>): ConfiguredPhotoUrls {
  return new ConfiguredPhotoUrls(
    loadSettings(PhotosSettings, variables),
    loadSettings(HttpSettings, variables),
    loadSettings(OpenApiSettings, variables),
  );
}

describe('ConfiguredPhotoUrls', () => {
  it.each([
    [{}, 'http://localhost:3000/media'],
    [{ PORT: '4210' }, 'http://localhost:4210/media'],
    [{ PORT: '4210', PUBLIC_BASE_URL_PRODUCTION: 'https://pets.example/v1' }, 'https://pets.example/media'],
    [{ PUBLIC_BASE_URL_PRODUCTION: 'https://pets.example/api/v1/' }, 'https://pets.example/api/media'],
    [{ PHOTO_PUBLIC_BASE_URL: 'https://cdn.example/photos/', PORT: '4210' }, 'https://cdn.example/photos'],
  ])('with %j, serves renditions under %s', (variables, base) => {
    expect(urlsWith(variables).of(KEYS).small).toBe(`${base}/renditions/pho_x/small-1.jpg`);
  });
});

describe('PetEventObjects', () => {
  const objects = new PetEventObjects(urlsWith({ PHOTO_PUBLIC_BASE_URL: 'https://cdn.example' }));
  const pet = { id: 1, name: 'Rex', photos: [{ id: 'pho_x', width: 4, height: 3, renditions: KEYS }] };
  const served = {
    id: 1,
    name: 'Rex',
    photos: [
      { id: 'pho_x', width: 4, height: 3, urls: expect.objectContaining({ full: `https://cdn.example/${KEYS.full}` }) },
    ],
  };

  it.each(['pet.created', 'pet.updated', 'pet.deleted'] as const)('forms the photos’ URLs of a %s event', (type) => {
    expect(objects.served(type, pet)).toEqual(served);
  });

  it('forms those of the pet a saved_search.matched event carries', () => {
    expect(objects.served('saved_search.matched', { pet, savedSearchId: 'srch_1' })).toEqual({
      pet: served,
      savedSearchId: 'srch_1',
    });
  });

  it('leaves the objects of other events as they are', () => {
    const order = { id: 7, pet: { id: 1 } };
    expect(objects.served('order.placed', order)).toBe(order);
  });

  it('serves a pet without photos as it is', () => {
    expect(objects.served('pet.created', { ...pet, photos: [] })).toEqual({ ...pet, photos: [] });
  });
});
