export * from './dto/pet.dto';
export * from './get-pet-deprecation.middleware';
export * from './pet-status';
export * from './pet.errors';
export { PET_IDS_LOCK, type PetPage } from './pets.repository';
export * from './pets-openapi';
export * from './pets.module';
export * from './pets.service';
