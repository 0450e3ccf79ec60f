import { sqlState } from '@app/database';
import { Injectable } from '@nestjs/common';
import type { NewPetDto, PetDto } from './dto/pet.dto';
import { PetNotFoundError, UnknownCategoryError } from './pet.errors';
import type { PetStatus } from './pet-status';
import { PetPage, PetsRepository } from './pets.repository';

const FOREIGN_KEY_VIOLATION = '23503';

/** The catalogue's rules; PetsRepository holds its SQL. */
@Injectable()
export class PetsService {
  constructor(private readonly pets: PetsRepository) {}

  list(options: { limit: number; status?: PetStatus; afterId?: number }): Promise<PetPage> {
    const { limit, status, afterId = 0 } = options;
    return this.pets.readPage({ status, afterId, limit });
  }

  async create(pet: NewPetDto): Promise<PetDto> {
    try {
      const created = await this.pets.insert(pet);
      if (created) return created;
    } catch (error) {
      // A category removed while its pet was being inserted.
      if (sqlState(error) !== FOREIGN_KEY_VIOLATION) throw error;
    }
    throw new UnknownCategoryError(pet.categoryId);
  }

  async get(petId: number): Promise<PetDto> {
    const pet = await this.pets.findById(petId);
    if (!pet) throw new PetNotFoundError(petId);
    return pet;
  }

  listCategories(): Promise<Array<{ id: number; name: string }>> {
    return this.pets.listCategories();
  }
}
