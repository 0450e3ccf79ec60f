import { CurrentPrincipal, Principal } from '@app/core';
import { ApiErrors, Public, SignUpRateLimit } from '@app/http';
import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { AccountsService } from './accounts.service';
import { AccountDto } from './dto/account.dto';
import { ApiKeyWithSecretDto } from './dto/api-key.dto';
import { SignUpDto, SignUpResponseDto } from './dto/sign-up.dto';
import { ACCOUNTS_API_TAG, EMAIL_TAKEN } from './accounts-openapi';
import { RequiredScope } from './api-keys/required-scope.decorator';

@ApiTags(ACCOUNTS_API_TAG.name)
@Controller()
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Public()
  @SignUpRateLimit()
  @Post('accounts')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createAccount',
    summary: 'Sign up',
    description: 'Creates an account on the free plan and returns its first API key. The key is shown only here.',
  })
  @ApiResponse({ status: 201, description: 'The new account and its first key.', type: SignUpResponseDto })
  @ApiErrors(400, EMAIL_TAKEN)
  async signUp(@Body() body: SignUpDto): Promise<SignUpResponseDto> {
    const { account, apiKey } = await this.accounts.signUp(body.email);
    return { account: AccountDto.from(account), apiKey: ApiKeyWithSecretDto.withSecret(apiKey.key, apiKey.secret) };
  }

  @Get('account')
  @RequiredScope('account:read')
  @ApiBearerAuth()
  @ApiOperation({
    operationId: 'getAccount',
    summary: 'The caller’s account',
    description: 'The account the key belongs to, with its plan and the rate limits that follow from it.',
  })
  @ApiResponse({ status: 200, description: 'The caller’s account.', type: AccountDto })
  @ApiErrors(401)
  async get(@CurrentPrincipal() principal: Principal): Promise<AccountDto> {
    return AccountDto.from(await this.accounts.get(principal.accountId));
  }
}
