import { bigintAsNumber } from '@app/core';
import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { PetStatus } from './pet-status';

@Entity('pets')
export class PetEntity {
  @PrimaryColumn({ type: 'bigint', generated: 'increment', transformer: bigintAsNumber })
  id: number;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ name: 'category_id', type: 'bigint', transformer: bigintAsNumber })
  categoryId: number;

  @Column({ type: 'text' })
  status: PetStatus;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
