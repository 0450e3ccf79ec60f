import { FORBIDDEN, NOT_FOUND, type ErrorCode } from '@app/http';

export const INVALID_IMAGE: ErrorCode = {
  status: 400,
  code: 'invalid_image',
  description: 'The bytes are not a JPEG, PNG or WebP image that decodes, or it is over 50 megapixels.',
  example: 'The photo is not a usable image: not a JPEG, PNG or WebP image.',
};
export const NOT_LISTER: ErrorCode = {
  ...FORBIDDEN,
  description: 'Only the account that listed the animal may change its photos.',
  example: 'Only the account that listed pet 42 may change or remove it.',
};
export const PHOTO_NOT_FOUND: ErrorCode = {
  ...NOT_FOUND,
  description: 'No such animal, or no such photo of it (or one not yet ready, to anyone but the lister).',
  example: 'No photo pho_3kTz9QwYb1nV0xLr5sPa2mHd.',
};
export const TOO_MANY_PHOTOS: ErrorCode = {
  status: 409,
  code: 'too_many_photos',
  description: 'The animal already has 10 photos (whatever their status).',
  example: 'Pet 42 already has 10 photos; remove one first.',
};
export const PHOTO_TOO_LARGE: ErrorCode = {
  status: 413,
  code: 'payload_too_large',
  description: 'The upload is larger than `PHOTO_MAX_BYTES` (10 MiB by default); the connection is closed.',
  example: 'The request body is larger than 10485760 bytes (PHOTO_MAX_BYTES).',
};
