import { LabelText } from '@app/core';
import { ApiProperty, ApiPropertyOptional, ApiSchema, OmitType } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsISO8601,
  IsOptional,
  ValidateBy,
} from 'class-validator';
import type { ApiKey } from '../api-keys/api-keys.repository';
import { GRANTABLE_SCOPES, GrantedScope, KEY_KINDS, KeyKind } from '../api-keys/scopes';

const MAX_ALLOWED_ORIGINS = 10;

/** `https://shelter.example` or `http://localhost:8080`: a scheme, a host and a port, as a browser's `Origin`. */
function isOrigin(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > 2048) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}

const IsOrigin = () =>
  ValidateBy(
    {
      name: 'isOrigin',
      validator: {
        validate: isOrigin,
        defaultMessage: () =>
          'each value in $property must be an origin as browsers send it, such as https://shelter.example ' +
          '(scheme and host in lower case, no path, no trailing slash)',
      },
    },
    { each: true },
  );

@ApiSchema({ name: 'ApiKey' })
export class ApiKeyDto {
  @ApiProperty({ type: 'integer', format: 'int64', example: 12 })
  id: number;

  @ApiProperty({ example: 'ci' })
  name: string;

  @ApiProperty({ description: 'The first 12 characters of the key, to recognise it.', example: 'pet_test_4Fq' })
  prefix: string;

  @ApiProperty({
    enum: KEY_KINDS,
    description: '`secret` for servers and people; `publishable` for a website’s pages (public reads only).',
  })
  kind: KeyKind;

  @ApiProperty({
    enum: GRANTABLE_SCOPES,
    isArray: true,
    description: 'What the key may do; `X:write` includes `X:read`, `*` is every scope.',
    example: ['pets:read'],
  })
  scopes: GrantedScope[];

  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'After this instant the key answers 401, as a revoked one; null: it does not expire.',
  })
  expiresAt: string | null;

  @ApiPropertyOptional({
    type: [String],
    description: 'Publishable keys only: the origins of the pages that may use the key.',
    example: ['https://shelter.example'],
  })
  allowedOrigins?: string[];

  @ApiPropertyOptional({
    description: 'Publishable keys only, which are not secret: the whole key.',
    example: 'pet_pk_test_4FqP0v3mYq2H5kT9wLr8sXc1ZbN6aJd7eGh0iKu',
  })
  key?: string;

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
      kind: key.kind,
      scopes: key.scopes,
      expiresAt: key.expiresAt?.toISOString() ?? null,
      ...(key.allowedOrigins ? { allowedOrigins: key.allowedOrigins } : {}),
      ...(key.publishableKey ? { key: key.publishableKey } : {}),
      createdAt: key.createdAt.toISOString(),
      lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
      revokedAt: key.revokedAt?.toISOString() ?? null,
    };
  }
}

@ApiSchema({ name: 'ApiKeyWithSecret' })
export class ApiKeyWithSecretDto extends OmitType(ApiKeyDto, ['key'] as const) {
  @ApiProperty({
    description: 'The key. A secret key is shown only in this response: store it now.',
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
  @LabelText(1, 100)
  name?: string;

  // The default said in words: a request schema's `default` makes openapi-typescript require the field.
  @ApiPropertyOptional({ enum: KEY_KINDS, description: '`secret` when omitted.' })
  @IsOptional()
  @IsIn(KEY_KINDS)
  kind?: KeyKind;

  @ApiPropertyOptional({
    enum: GRANTABLE_SCOPES,
    isArray: true,
    minItems: 1,
    maxItems: GRANTABLE_SCOPES.length,
    uniqueItems: true,
    description: 'Secret keys only; `["*"]` when absent. Only scopes the calling key holds itself (`*` only from `*`).',
    example: ['pets:read'],
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(GRANTABLE_SCOPES.length)
  @ArrayUnique()
  @IsIn(GRANTABLE_SCOPES, { each: true })
  scopes?: GrantedScope[];

  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    description: 'When the key stops working: in the future, at most 2 years ahead. Absent: never.',
  })
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true })
  expiresAt?: string;

  @ApiPropertyOptional({
    type: [String],
    minItems: 1,
    maxItems: MAX_ALLOWED_ORIGINS,
    description: 'Publishable keys only, and required for them: the origins of the pages that may use the key.',
    example: ['https://shelter.example'],
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_ALLOWED_ORIGINS)
  @ArrayUnique()
  @IsOrigin()
  allowedOrigins?: string[];
}
