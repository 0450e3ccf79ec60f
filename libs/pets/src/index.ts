export * from './category.entity';
export * from './dto/pet.dto';
export * from './get-pet-deprecation.middleware';
export * from './pet-status';
export * from './pet.entity';
export * from './pet.errors';
export * from './pets.module';
export * from './pets.service';
