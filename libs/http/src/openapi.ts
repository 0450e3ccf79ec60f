import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { Environment } from '@app/core';

export const OPENAPI_VERSION = '1.0.0';

/** A group of operations, declared by the context whose controllers carry it (`@ApiTags(tag.name)`). */
export interface ApiTag {
  name: string;
  description: string;
}

/**
 * The document's frame: paths are relative to the `/v1` base addresses listed in `servers`; `tags` are
 * listed in the order given.
 */
export function openApiFrame(env: Environment, tags: readonly ApiTag[]) {
  const frame = new DocumentBuilder()
    .setTitle('Pet Adoption Service')
    .setDescription(
      'Animals up for adoption, and a separate message-sending operation. Every operation except ' +
        'sign-up takes an API key as a bearer token; every error has the body `{code, message, status}`.',
    )
    .setVersion(OPENAPI_VERSION)
    .addServer(env.PUBLIC_BASE_URL_PRODUCTION, 'Production')
    .addServer(env.PUBLIC_BASE_URL_STAGING, 'Staging');
  for (const tag of tags) frame.addTag(tag.name, tag.description);
  return frame
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      // Not the JWT that Swagger assumes: an opaque key, pet_live_… or pet_test_….
      bearerFormat: 'API key',
      description: 'An API key: `Authorization: Bearer <API_KEY>`.',
    })
    .build();
}

export function createOpenApiDocument(app: INestApplication, env: Environment, tags: readonly ApiTag[]): OpenAPIObject {
  return SwaggerModule.createDocument(app, openApiFrame(env, tags), {
    ignoreGlobalPrefix: true,
    operationIdFactory: (_controller, method) => method,
  });
}

/** Swagger UI at `/docs`, the JSON at `/docs/openapi.json`. */
export function serveOpenApi(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup('docs', app, document, {
    useGlobalPrefix: false,
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
    customSiteTitle: 'Pet Adoption Service API',
  });
}
