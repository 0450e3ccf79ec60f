export * from './dto/list-pets-query.dto';
export * from './dto/pet.dto';
export { HttpsUrlField, LocationField, PetLocationDto, TextField } from './dto/pet-fields';
export * from './dto/pet-photo.dto';
export * from './dto/update-pet.dto';
export * from './pet-changes';
export * from './pet-photo-urls';
export { encodePetCursor } from './pet-cursor';
export * from './get-pet-deprecation.middleware';
export * from './pet-holds.repository';
export * from './pet-status';
export * from './pet.errors';
export { type PetPage } from './pets.repository';
export { degreeBounds } from './pet-search.repository';
export * from './pets-openapi';
export * from './pets.module';
export * from './pets.service';
/** A pet's columns and their Pet: also the bench reference's page, read without the service. */
export { PET_COLUMNS, toPet, type PetRow } from './pet-row';
/** What libs/photos needs to change a pet's `photos` as every change of a pet is made (pet-changes.ts). */
export { toStoredPet, type StoredPet } from './pet-row';
export { petEvents } from './pet-events';
