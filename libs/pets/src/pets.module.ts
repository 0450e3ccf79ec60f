import { EventsModule } from '@app/events';
import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { GetPetDeprecationMiddleware } from './get-pet-deprecation.middleware';
import { PetHolds } from './pet-holds';
import { PetHoldsRepository } from './pet-holds.repository';
import { PetPhotoChanges } from './pet-photo-changes';
import { PetPhotosRepository } from './pet-photos.repository';
import { PetsController } from './pets.controller';
import { PetSearchRepository } from './pet-search.repository';
import { PetsPersonalData } from './pets-personal-data.part';
import { PetsPersonalDataRepository } from './pets-personal-data.repository';
import { PetsRepository } from './pets.repository';
import { PetsService } from './pets.service';

@Module({
  imports: [EventsModule],
  providers: [
    PetsRepository,
    PetSearchRepository,
    PetsService,
    PetHoldsRepository,
    { provide: PetHolds, useExisting: PetHoldsRepository },
    PetPhotosRepository,
    PetPhotoChanges,
    PetsPersonalDataRepository,
    PetsPersonalData,
  ],
  exports: [PetsService, PetHolds, PetPhotoChanges],
})
export class PetsModule {}

/** `/v1/pets` and `/v1/categories`. */
@Module({
  imports: [PetsModule],
  controllers: [PetsController],
})
export class PetsHttpModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(GetPetDeprecationMiddleware).forRoutes({ path: 'pets/:petId', method: RequestMethod.GET });
  }
}
