import { type PetRow, toPet, toStoredPet } from './pet-row';

/** A row with only what a new pet always has. */
const bare: PetRow = {
  id: '7',
  name: 'Rex',
  category_id: '2',
  status: 'available',
  sex: 'unknown',
  photos: [],
  created_at: new Date('2026-06-01T00:00:00.123Z'),
  updated_at: new Date('2026-06-02T00:00:00.456Z'),
  description: null,
  breed: null,
  age_group: null,
  size: null,
  tags: null,
  photo_urls: null,
  latitude: null,
  longitude: null,
  spayed_neutered: null,
  house_trained: null,
  declawed: null,
  special_needs: null,
  shots_current: null,
  special_needs_notes: null,
  good_with_children: null,
  good_with_dogs: null,
  good_with_cats: null,
  coat: null,
  colors: null,
  secondary_breed: null,
  mixed_breed: null,
  external_id: null,
  organization_id: null,
  lister_account_id: null,
  has_open_order: false,
  version: '1',
};

describe('toPet', () => {
  it('shows ids as numbers and times as ISO 8601, and leaves out what was never set', () => {
    expect(toPet(bare)).toStrictEqual({
      id: 7,
      name: 'Rex',
      categoryId: 2,
      status: 'available',
      sex: 'unknown',
      photos: [],
      createdAt: '2026-06-01T00:00:00.123Z',
      updatedAt: '2026-06-02T00:00:00.456Z',
    });
  });

  it('shows an object with the members that are set, a false flag included', () => {
    const pet = toPet({ ...bare, latitude: 52.5, longitude: 13.4, declawed: false, good_with_cats: true, tags: [] });
    expect(pet).toMatchObject({
      location: { latitude: 52.5, longitude: 13.4 },
      attributes: { declawed: false },
      environment: { cats: true },
      tags: [],
    });
    expect(pet.attributes).toStrictEqual({ declawed: false });
  });

  it('never shows the lister, which the stored pet keeps', () => {
    const stored = toStoredPet({ ...bare, lister_account_id: '3', has_open_order: true });
    expect(stored).toMatchObject({ listerAccountId: 3, hasOpenOrder: true, version: '1' });
    expect(stored.pet).not.toHaveProperty('listerAccountId');
  });
});
