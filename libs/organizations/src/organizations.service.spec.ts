import type { OrganizationDto } from './dto/organization.dto';
import type { StoredOrganization } from './organizations.repository';
import { merged } from './organizations.service';

const stored = (fields: Partial<OrganizationDto> = {}): StoredOrganization => ({
  organization: {
    id: 'org_0123456789abcdef0123',
    name: 'Tierheim Berlin',
    description: 'We rehome 1,500 animals a year.',
    email: 'hello@tierheim.example',
    address: { line1: 'Hauptstraße 1', city: 'Berlin', country: 'DE' },
    hours: { monday: '10:00-18:00' },
    animalCounts: { available: 3, pending: 1, sold: 0 },
    createdAt: '2026-06-01T00:00:00.000Z',
    updatedAt: '2026-06-01T00:00:00.000Z',
    ...fields,
  },
  version: '1',
});

describe('merged (a profile after a merge patch)', () => {
  it('keeps the fields the change leaves out, and replaces those it sets', () => {
    expect(merged(stored(), { description: 'Since 1841.' })).toEqual({
      name: 'Tierheim Berlin',
      description: 'Since 1841.',
      email: 'hello@tierheim.example',
      address: { line1: 'Hauptstraße 1', city: 'Berlin', country: 'DE' },
      hours: { monday: '10:00-18:00' },
    });
  });

  it('clears a field the change sets to null, a nested object whole', () => {
    const profile = merged(stored(), { email: null, hours: null });
    expect(profile).not.toHaveProperty('email');
    expect(profile).not.toHaveProperty('hours');
    expect(profile.name).toBe('Tierheim Berlin');
  });

  it('takes a nested object as the change gives it (merged member by member before)', () => {
    const address = { line1: 'Am Kanal 2', city: 'Potsdam', country: 'DE' };
    expect(merged(stored(), { address }).address).toEqual(address);
  });

  it('leaves out what is no field of a profile: the id, the counts and the times', () => {
    expect(Object.keys(merged(stored({ distanceKm: 3.2 }), { name: 'Tierheim Potsdam' })).sort()).toEqual([
      'address',
      'description',
      'email',
      'hours',
      'name',
    ]);
  });
});
