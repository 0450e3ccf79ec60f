import { ApiExtraModels, ApiProperty, ApiSchema } from '@nestjs/swagger';
import { AccountDto } from './account.dto';
import { ApiKeyDto } from './api-key.dto';

@ApiSchema({
  name: 'AccountExport',
  description:
    'Everything the service holds about the account, read at one moment: one member per section, an array of ' +
    'records as the operations that read them show them (or one record, or null), never a secret. Besides ' +
    '`account` and `apiKeys`: `events` (of the last 30 days), `messages`, `orders` (of both roles, each with ' +
    'its `role`), `organization`, `pets` (with their photos’ URLs), `savedSearches` and `webhookEndpoints`. ' +
    'docs/security.md lists every section.',
})
@ApiExtraModels(AccountDto, ApiKeyDto)
export class AccountExportDto {
  @ApiProperty({ type: 'string', format: 'date-time', description: 'When the export was read.' })
  exportedAt: string;

  @ApiProperty({ type: AccountDto })
  account: AccountDto;

  @ApiProperty({ type: ApiKeyDto, isArray: true, description: 'Every key, revoked or not, never its secret.' })
  apiKeys: ApiKeyDto[];
}
