import { bigintAsNumber } from '@app/core';
import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { Plan } from './plans';

@Entity('accounts')
export class AccountEntity {
  @PrimaryColumn({ type: 'bigint', generated: 'increment', transformer: bigintAsNumber })
  id: number;

  /** As the client gave it. */
  @Column({ type: 'varchar', length: 254 })
  email: string;

  /**
   * `canonicalEmail(email)`, unique: what sign-ups compare. Null only for an account that shared its
   * canonical email with an older one when the column was introduced.
   */
  @Column({ name: 'email_canonical', type: 'text', nullable: true })
  emailCanonical: string | null;

  @Column({ type: 'text' })
  plan: Plan;

  @Column({ name: 'custom_per_minute', type: 'integer', nullable: true })
  customPerMinute: number | null;

  @Column({ name: 'custom_per_day', type: 'integer', nullable: true })
  customPerDay: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
