import { AppError, NotFoundError, PayloadTooLargeError } from '@app/core';

/** The bytes are not a JPEG, PNG or WebP image that decodes, or it is over 50 megapixels. */
export class InvalidImageError extends AppError {
  constructor(reason: string) {
    super(400, 'invalid_image', `The photo is not a usable image: ${reason}.`);
  }
}

export class TooManyPhotosError extends AppError {
  constructor(petId: number, limit: number) {
    super(409, 'too_many_photos', `Pet ${petId} already has ${limit} photos; remove one first.`);
  }
}

export class PhotoNotFoundError extends NotFoundError {
  constructor(photoId: string) {
    super(`No photo ${photoId}.`);
  }
}

export class PhotoTooLargeError extends PayloadTooLargeError {
  constructor(maxBytes: number) {
    super(`${maxBytes} bytes (PHOTO_MAX_BYTES)`);
  }
}

/** A file the storage does not hold (a photo's original removed, or a rendition never written). */
export class StoredFileMissingError extends Error {
  constructor(key: string) {
    super(`no stored file ${key}`);
    this.name = StoredFileMissingError.name;
  }
}

export class PhotoFileNotFoundError extends NotFoundError {
  constructor() {
    super('No such file.');
  }
}
