import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { GetPetDeprecationMiddleware } from './get-pet-deprecation.middleware';
import { PetsController } from './pets.controller';
import { PetsRepository } from './pets.repository';
import { PetsService } from './pets.service';

@Module({
  providers: [PetsRepository, PetsService],
  exports: [PetsService],
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
