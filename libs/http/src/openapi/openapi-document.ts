import { ErrorBodyDto } from '@app/core';
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { HeadersObject, OperationObject, RequestBodyObject, ResponseObject } from '@nestjs/swagger';
import { ERROR_CODES_EXTENSION, ErrorCode } from './api-errors';
import { headerRef, RESPONSE_HEADER_COMPONENTS, STANDARD_HEADER_NAMES } from './response-headers';

export const OPENAPI_VERSION = '1.0.0';

/** A group of operations, declared by the context whose controllers carry it (`@ApiTags(tag.name)`). */
export interface ApiTag {
  name: string;
  description: string;
}

export interface ServerEntry {
  url: string;
  description: string;
}

/** What one app's document says about itself: its base addresses and the tags of its operations. */
export interface DocumentFrame {
  title: string;
  description: string;
  servers: readonly ServerEntry[];
  tags: readonly ApiTag[];
}

/** Operation extensions that the finishing resolves (set by this library's decorators). */
export const EVERY_RESPONSE_HEADERS_EXTENSION = 'x-every-response-headers';
export const SUCCESS_HEADERS_EXTENSION = 'x-success-headers';
export const PUBLIC_EXTENSION = 'x-public';
/** An operation's whole request body, for what @nestjs/swagger cannot say: a schema per media type. */
export const REQUEST_BODY_EXTENSION = 'x-request-body';

const METHODS_WITH_BODY = new Set(['post', 'put', 'patch']);
const ERROR_SCHEMA = { $ref: '#/components/schemas/Error' };

function errorResponse(codes: ErrorCode[]): ResponseObject {
  const status = codes[0]!.status;
  return {
    description: codes.map((error) => `- \`${error.code}\`: ${error.description}`).join('\n'),
    headers: Object.fromEntries(codes.flatMap((error) => error.headers ?? []).map((name) => [name, headerRef(name)])),
    content: {
      'application/json': {
        schema: {
          allOf: [
            ERROR_SCHEMA,
            { type: 'object', properties: { code: { type: 'string', enum: codes.map((error) => error.code) } } },
          ],
        },
        examples: Object.fromEntries(
          codes.map((error) => [
            error.code,
            { summary: error.description, value: { code: error.code, message: error.example, status } },
          ]),
        ),
      },
    },
  };
}

/**
 * Gives every response what the service sends with it: error responses their codes, standard headers
 * (request id, rate limits) on everything that reached the application, and the headers an operation
 * declared for all or for its successful responses. A public operation declares `security: []`.
 */
function finishOperation(method: string, operation: OperationObject): void {
  const extensions = operation as unknown as Record<string, unknown>;
  const everyResponse = (extensions[EVERY_RESPONSE_HEADERS_EXTENSION] as HeadersObject | undefined) ?? {};
  const onSuccess = (extensions[SUCCESS_HEADERS_EXTENSION] as HeadersObject | undefined) ?? {};
  if (extensions[PUBLIC_EXTENSION]) operation.security = [];
  if (extensions[REQUEST_BODY_EXTENSION])
    operation.requestBody = extensions[REQUEST_BODY_EXTENSION] as RequestBodyObject;
  for (const name of [
    EVERY_RESPONSE_HEADERS_EXTENSION,
    SUCCESS_HEADERS_EXTENSION,
    PUBLIC_EXTENSION,
    REQUEST_BODY_EXTENSION,
  ])
    delete extensions[name];

  const responses: Record<string, ResponseObject> = {};
  for (const [status, declared] of Object.entries(operation.responses as Record<string, ResponseObject>)) {
    const codes = (
      (declared as unknown as Record<string, unknown>)[ERROR_CODES_EXTENSION] as ErrorCode[] | undefined
    )?.filter((error) => !error.bodyOnly || METHODS_WITH_BODY.has(method));
    if (codes?.length === 0) continue;
    const response = codes ? errorResponse(codes) : declared;
    responses[status] = response;
    if (codes?.every((error) => error.beforeApplication)) continue;
    response.headers = {
      ...Object.fromEntries(STANDARD_HEADER_NAMES.map((name) => [name, headerRef(name)])),
      ...everyResponse,
      ...(status.startsWith('2') ? onSuccess : {}),
      ...response.headers,
    };
  }
  operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}

type Schema = Record<string, unknown>;

/**
 * A nullable property whose schema is another one (`allOf: [$ref]`, as @nestjs/swagger writes a nullable
 * enum) gets that schema's `type`: OpenAPI 3.0.3 gives `nullable` effect only beside a `type`, and
 * generators and linters read it so.
 */
function typeNullableReferences(schemas: Record<string, Schema>): void {
  for (const schema of Object.values(schemas)) {
    for (const property of Object.values((schema.properties ?? {}) as Record<string, Schema>)) {
      const [only, ...others] = (property.allOf ?? []) as Schema[];
      if (!property.nullable || property.type || !only || others.length > 0 || typeof only.$ref !== 'string') continue;
      const target = schemas[only.$ref.split('/').pop()!];
      if (target?.type) property.type = target.type;
    }
  }
}

function finishDocument(document: OpenAPIObject): OpenAPIObject {
  typeNullableReferences((document.components?.schemas ?? {}) as Record<string, Schema>);
  for (const item of Object.values(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (operation && typeof operation === 'object' && 'responses' in operation)
        finishOperation(method, operation as OperationObject);
    }
  }
  document.components = { ...document.components, headers: RESPONSE_HEADER_COMPONENTS };
  // The service is not published under a licence; there is no licence text to link to.
  document.info.license = { name: 'Proprietary' };
  return document;
}

/** One app's document: its operations, relative to the base addresses in its `servers`. */
export function createOpenApiDocument(app: INestApplication, frame: DocumentFrame): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle(frame.title)
    .setDescription(frame.description)
    .setVersion(OPENAPI_VERSION)
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      // Not the JWT that Swagger assumes: an opaque key, pet_live_… or pet_test_….
      bearerFormat: 'API key',
      description: 'An API key: `Authorization: Bearer <API_KEY>`.',
    });
  for (const server of frame.servers) builder.addServer(server.url, server.description);
  for (const tag of frame.tags) builder.addTag(tag.name, tag.description);
  const document = SwaggerModule.createDocument(app, builder.build(), {
    ignoreGlobalPrefix: true,
    // Error responses refer to it by name (see errorResponse).
    extraModels: [ErrorBodyDto],
    operationIdFactory: (_controller, method) => method,
  });
  return finishDocument(document);
}

/** Another document that an app's Swagger UI offers in its selector. */
export interface LinkedDocument {
  name: string;
  url: string;
}

/**
 * Swagger UI at `/docs` (remembering the key across reloads), the JSON at `/docs/openapi.json`. With
 * linked documents, the UI's selector offers them after this one.
 */
export function serveOpenApi(app: INestApplication, document: OpenAPIObject, linked: LinkedDocument[] = []): void {
  SwaggerModule.setup('docs', app, document, {
    useGlobalPrefix: false,
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
    customSiteTitle: document.info.title,
    explorer: linked.length > 0,
    swaggerOptions: {
      persistAuthorization: true,
      displayOperationId: true,
      ...(linked.length > 0 ? { urls: [{ name: document.info.title, url: '/docs/openapi.json' }, ...linked] } : {}),
    },
  });
}
