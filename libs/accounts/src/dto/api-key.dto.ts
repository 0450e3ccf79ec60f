import { CharacterCount } from '@app/core';
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { Transform } from 'class-transformer';
import type { ApiKey } from '../api-keys/api-keys.repository';

@ApiSchema({ name: 'ApiKey' })
export class ApiKeyDto {
  @ApiProperty({ type: 'integer', format: 'int64', example: 12 })
  id: number;

  @ApiProperty({ example: 'ci' })
  name: string;

  @ApiProperty({ description: 'The first 12 characters of the key, to recognise it.', example: 'pet_test_4Fq' })
  prefix: string;

  @ApiProperty({ type: 'string', format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  lastUsedAt: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  revokedAt: string | null;

  static from(key: ApiKey): ApiKeyDto {
    return {
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      createdAt: key.createdAt.toISOString(),
      lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
      revokedAt: key.revokedAt?.toISOString() ?? null,
    };
  }
}

@ApiSchema({ name: 'ApiKeyWithSecret' })
export class ApiKeyWithSecretDto extends ApiKeyDto {
  @ApiProperty({
    description: 'The secret key. Shown only in this response: store it now.',
    example: 'pet_test_4FqP0v3mYq2H5kT9wLr8sXc1ZbN6aJd7eGh0iKu',
  })
  key: string;

  static withSecret(key: ApiKey, secret: string): ApiKeyWithSecretDto {
    return { ...ApiKeyDto.from(key), key: secret };
  }
}

@ApiSchema({ name: 'NewApiKey' })
export class CreateApiKeyDto {
  @ApiProperty({ required: false, maxLength: 100, example: 'ci', description: 'A label for people.' })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @CharacterCount(1, 100)
  name?: string;
}
