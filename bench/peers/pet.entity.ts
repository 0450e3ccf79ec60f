import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** The pets table as a team maps it with TypeORM's decorators: every column, as a Pet's fields. */
@Entity('pets')
export class PetEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ name: 'category_id', type: 'bigint' })
  categoryId: string;

  @Column({ type: 'text', default: 'available' })
  status: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'text', nullable: true })
  breed: string | null;

  @Column({ type: 'text', default: 'unknown' })
  sex: string;

  @Column({ name: 'age_group', type: 'text', nullable: true })
  ageGroup: string | null;

  @Column({ type: 'text', nullable: true })
  size: string | null;

  @Column({ type: 'text', array: true, nullable: true })
  tags: string[] | null;

  @Column({ name: 'photo_urls', type: 'text', array: true, nullable: true })
  photoUrls: string[] | null;

  @Column({ type: 'double precision', nullable: true })
  latitude: number | null;

  @Column({ type: 'double precision', nullable: true })
  longitude: number | null;

  @Column({ name: 'lister_account_id', type: 'bigint', nullable: true })
  listerAccountId: string | null;

  @Column({ name: 'organization_id', type: 'text', nullable: true })
  organizationId: string | null;

  @Column({ name: 'spayed_neutered', type: 'boolean', nullable: true })
  spayedNeutered: boolean | null;

  @Column({ name: 'house_trained', type: 'boolean', nullable: true })
  houseTrained: boolean | null;

  @Column({ name: 'special_needs', type: 'boolean', nullable: true })
  specialNeeds: boolean | null;

  @Column({ name: 'good_with_children', type: 'boolean', nullable: true })
  goodWithChildren: boolean | null;

  @Column({ name: 'good_with_dogs', type: 'boolean', nullable: true })
  goodWithDogs: boolean | null;

  @Column({ name: 'good_with_cats', type: 'boolean', nullable: true })
  goodWithCats: boolean | null;

  @Column({ type: 'text', nullable: true })
  coat: string | null;

  @Column({ type: 'text', array: true, nullable: true })
  colors: string[] | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

/** The keys table, as far as authenticating a request needs it. */
@Entity('api_keys')
export class ApiKeyEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'account_id', type: 'bigint' })
  accountId: string;

  @Column({ name: 'key_hash', type: 'bytea' })
  keyHash: Buffer;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
