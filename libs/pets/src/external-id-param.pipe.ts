import { ValidationFailedError } from '@app/core';
import { Injectable, PipeTransform } from '@nestjs/common';
import { EXTERNAL_ID } from './dto/pet-fields';

/** The `externalId` of a path: the characters and length of the field. */
@Injectable()
export class ExternalIdParamPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!EXTERNAL_ID.test(value)) {
      const message = 'externalId must be 1 to 64 characters of A–Z a–z 0–9 . _ : -';
      throw new ValidationFailedError(message, [{ field: 'externalId', message }]);
    }
    return value;
  }
}
