import { CurrentPrincipal, Principal } from '@app/core';
import { SignUpRateLimit } from '@app/http';
import { Body, Controller } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { AccountsService } from './accounts.service';
import { AccountDto } from './dto/account.dto';
import { ApiKeyWithSecretDto } from './dto/api-key.dto';
import { SignUpDto, SignUpResponseDto } from './dto/sign-up.dto';
import { ACCOUNTS_API_TAG, EMAIL_TAKEN } from './accounts-openapi';
import { Endpoint } from './api-keys/endpoint.decorator';

@ApiTags(ACCOUNTS_API_TAG.name)
@Controller()
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @SignUpRateLimit()
  @Endpoint({
    method: 'POST',
    path: 'accounts',
    id: 'createAccount',
    scope: 'public',
    summary: 'Sign up',
    description: 'Creates an account on the free plan and returns its first API key. The key is shown only here.',
    success: { status: 201, description: 'The new account and its first key.', type: SignUpResponseDto },
    errors: [400, EMAIL_TAKEN],
  })
  async signUp(@Body() body: SignUpDto): Promise<SignUpResponseDto> {
    const { account, apiKey } = await this.accounts.signUp(body.email);
    return { account: AccountDto.from(account), apiKey: ApiKeyWithSecretDto.withSecret(apiKey.key, apiKey.secret) };
  }

  @ApiBearerAuth()
  @Endpoint({
    method: 'GET',
    path: 'account',
    id: 'getAccount',
    scope: 'account:read',
    summary: 'The caller’s account',
    description: 'The account the key belongs to, with its plan and the rate limits that follow from it.',
    success: { status: 200, description: 'The caller’s account.', type: AccountDto },
    errors: [401],
  })
  async get(@CurrentPrincipal() principal: Principal): Promise<AccountDto> {
    return AccountDto.from(await this.accounts.get(principal.accountId));
  }
}
