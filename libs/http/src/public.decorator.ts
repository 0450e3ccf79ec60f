import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { PUBLIC_EXTENSION } from './openapi/openapi-document';

export const IS_PUBLIC = 'pet-adoption:is-public';

/** Marks a route that is served without an API key; its document entry says so (`security: []`). */
export const Public = () => applyDecorators(SetMetadata(IS_PUBLIC, true), ApiExtension(PUBLIC_EXTENSION, true));
