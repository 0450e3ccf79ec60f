import { bigintAsNumber } from '@app/core';
import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity('api_keys')
export class ApiKeyEntity {
  @PrimaryColumn({ type: 'bigint', generated: 'increment', transformer: bigintAsNumber })
  id: number;

  @Column({ name: 'account_id', type: 'bigint', transformer: bigintAsNumber })
  accountId: number;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 12 })
  prefix: string;

  /** SHA-256 of the secret; the secret itself is never stored. */
  @Column({ name: 'key_hash', type: 'bytea', select: false })
  keyHash: Buffer;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
