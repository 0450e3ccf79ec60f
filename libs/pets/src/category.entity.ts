import { bigintAsNumber } from '@app/core';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Seeded by a migration; clients reference categories by id. */
@Entity('categories')
export class CategoryEntity {
  @PrimaryColumn({ type: 'bigint', transformer: bigintAsNumber })
  id: number;

  @Column({ type: 'varchar', length: 100 })
  name: string;
}
