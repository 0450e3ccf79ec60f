import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { ValidationFailedError } from '@app/core';

/** A path id: a positive integer that fits both int8 and a JSON number (≤ 2^53 − 1). */
@Injectable()
export class IdParamPipe implements PipeTransform<string, number> {
  transform(value: string, metadata: ArgumentMetadata): number {
    const id = /^[1-9][0-9]{0,15}$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(id)) {
      throw new ValidationFailedError(`${metadata.data ?? 'id'} must be a positive integer`, [
        { field: metadata.data, message: `${metadata.data ?? 'id'} must be a positive integer` },
      ]);
    }
    return id;
  }
}
