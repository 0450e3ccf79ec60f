import { CharacterCount } from '@app/core';
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsString } from 'class-validator';
import { AccountDto } from './account.dto';
import { ApiKeyWithSecretDto } from './api-key.dto';

@ApiSchema({ name: 'NewAccount' })
export class SignUpDto {
  @ApiProperty({
    format: 'email',
    maxLength: 254,
    example: 'alex@example.com',
    description:
      'Compared with registered emails in one canonical form (Unicode NFKC, then full upper- and lower-case ' +
      'mapping): `xß@example.com`, `XSS@example.com` and `ｘss@example.com` are one address.',
  })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @CharacterCount(1, 254)
  // isEmail would throw on an unpaired surrogate (encodeURI): the validation pipe's text gate refuses it first.
  @IsEmail()
  email: string;
}

@ApiSchema({ name: 'SignUpResult' })
export class SignUpResponseDto {
  @ApiProperty({ type: AccountDto })
  account: AccountDto;

  @ApiProperty({ type: ApiKeyWithSecretDto })
  apiKey: ApiKeyWithSecretDto;
}
