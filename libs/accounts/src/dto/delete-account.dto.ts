import { CharacterCount } from '@app/core';
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsString } from 'class-validator';

@ApiSchema({ name: 'AccountDeletion' })
export class DeleteAccountDto {
  @ApiProperty({
    maxLength: 254,
    example: 'alex@example.com',
    description: 'The account’s email, compared as sign-ups compare them: the owner’s confirmation.',
  })
  @IsString()
  @CharacterCount(1, 254)
  confirm: string;
}
