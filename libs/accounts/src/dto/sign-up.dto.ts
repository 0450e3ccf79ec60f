import { CharacterCount, IsStorableText } from '@app/core';
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
  @IsEmail()
  // Nearest the property, so it runs first: isEmail throws on an unpaired surrogate (encodeURI).
  @IsStorableText()
  email: string;
}

@ApiSchema({ name: 'SignUpResult' })
export class SignUpResponseDto {
  @ApiProperty({ type: AccountDto })
  account: AccountDto;

  @ApiProperty({ type: ApiKeyWithSecretDto })
  apiKey: ApiKeyWithSecretDto;
}
