import { CurrentPrincipal, Principal } from '@app/core';
import { IdParamPipe } from '@app/http';
import { Idempotent } from '@app/idempotency';
import { Body, Controller, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ApiKeyAlreadyIssuedError } from '../accounts.errors';
import { ApiKeyDto, ApiKeyWithSecretDto, CreateApiKeyDto } from '../dto/api-key.dto';
import { ApiKeysService } from './api-keys.service';
import { Endpoint } from './endpoint.decorator';
import { KEY_ALREADY_ISSUED, KEY_NOT_FOUND, KEYS_API_TAG } from '../accounts-openapi';

@ApiTags(KEYS_API_TAG.name)
@ApiBearerAuth()
@Controller('keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Idempotent<ApiKeyWithSecretDto, 'key'>({
    secret: { fields: ['key'], replay: (issued) => new ApiKeyAlreadyIssuedError(issued.id) },
  })
  @Endpoint({
    method: 'POST',
    id: 'createKey',
    scope: 'keys:write',
    summary: 'Issue a key',
    description:
      'Issues a new key for the caller’s account: a secret key with the `scopes` asked (every scope when ' +
      'absent), or a publishable key for a website’s pages (`kind: "publishable"` with `allowedOrigins`), ' +
      'optionally expiring at `expiresAt`. A key grants no more than it holds: asking for a scope the ' +
      'calling key lacks (`*` only from `*`), or a publishable key without `pets:read`, answers ' +
      '`403 insufficient_scope`; a calling key that expires makes only keys with an `expiresAt` no later ' +
      'than its own (`400 validation_failed` otherwise). A secret key is shown in this response only.',
    // Examples of whole bodies: one built from every field's example would mix a secret key's fields with a
    // publishable key's, which the service refuses (and Swagger UI would send it).
    body: {
      type: CreateApiKeyDto,
      required: false,
      examples: {
        secret: { summary: 'A secret key for a server', value: { name: 'ci', scopes: ['pets:read'] } },
        publishable: {
          summary: 'A publishable key for a website',
          value: { name: 'website', kind: 'publishable', allowedOrigins: ['https://shelter.example'] },
        },
      },
    },
    success: { status: 201, description: 'The new key, with its secret.', type: ApiKeyWithSecretDto },
    errors: [400, 401, KEY_ALREADY_ISSUED],
  })
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateApiKeyDto): Promise<ApiKeyWithSecretDto> {
    const { key, secret } = await this.keys.issueFor(principal, body);
    return ApiKeyWithSecretDto.withSecret(key, secret);
  }

  @Endpoint({
    method: 'GET',
    id: 'listKeys',
    scope: 'keys:read',
    summary: 'List keys',
    description:
      'The keys of the caller’s account, revoked ones included; never a secret key, but publishable keys ' +
      'whole (they are not secret).',
    success: { status: 200, description: 'The account’s keys.', type: [ApiKeyDto] },
    errors: [401],
  })
  async list(@CurrentPrincipal() principal: Principal): Promise<ApiKeyDto[]> {
    return (await this.keys.list(principal.accountId)).map((key) => ApiKeyDto.from(key));
  }

  @Endpoint({
    method: 'DELETE',
    path: ':keyId',
    id: 'revokeKey',
    scope: 'keys:write',
    summary: 'Revoke a key',
    description:
      'Revokes a key of the caller’s account; it stops working on every process within a second. The calling ' +
      'key revokes only keys whose scopes it holds itself (a `*` key only with `*`): `403 insufficient_scope` ' +
      'otherwise.',
    params: [
      {
        name: 'keyId',
        description: 'Identifier of the key.',
        schema: { type: 'integer', format: 'int64', minimum: 1 },
      },
    ],
    success: { status: 204, description: 'Revoked.' },
    errors: [400, 401, KEY_NOT_FOUND],
  })
  async revoke(@CurrentPrincipal() principal: Principal, @Param('keyId', IdParamPipe) keyId: number): Promise<void> {
    await this.keys.revokeFor(principal, keyId);
  }
}
