import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'pet-adoption:is-public';

/** Marks a route (or controller) that is served without an API key. */
export const Public = () => SetMetadata(IS_PUBLIC, true);
