import { ErrorBodyDto } from '@app/core';
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type {
  HeadersObject,
  OperationObject,
  ParameterObject,
  RequestBodyObject,
  ResponseObject,
} from '@nestjs/swagger';
import { ERROR_CODES_EXTENSION, ErrorCode } from './api-errors';
import { headerRef, RESPONSE_HEADER_COMPONENTS, STANDARD_HEADER_NAMES } from './response-headers';

const OPENAPI_VERSION = '1.0.0';

/** A group of operations, declared by the context whose controllers carry it (`@ApiTags(tag.name)`). */
export interface ApiTag {
  name: string;
  description: string;
}

interface ServerEntry {
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
/** Kept in the document: the scope a keyed operation needs, and whether a publishable key may call it. */
export const REQUIRED_SCOPE_EXTENSION = 'x-required-scope';
export const PUBLISHABLE_KEY_EXTENSION = 'x-publishable-key';

/** The description's line on the scope, so that people reading the document (or the client's types) see it. */
function scopeLine(extensions: Record<string, unknown>): string | undefined {
  const scope = extensions[REQUIRED_SCOPE_EXTENSION];
  if (typeof scope !== 'string') return undefined;
  const publishable = extensions[PUBLISHABLE_KEY_EXTENSION]
    ? ' A publishable key may call it from the origins it allows.'
    : ' A publishable key may not call it.';
  const wider = scope.endsWith(':read') ? `\`${scope.replace(/:read$/, ':write')}\` or \`*\`` : '`*`';
  return `Required scope: \`${scope}\` (${wider} also grants it).${publishable}`;
}

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
/**
 * An optional parameter's example goes into its description: Swagger UI fills the form with it and sends
 * it, and an example filter (an organisation, a point, a colour) changes or empties the answer, or is
 * refused alone.
 */
function describeOptionalExamples(operation: OperationObject): void {
  for (const parameter of (operation.parameters ?? []) as ParameterObject[]) {
    const schema = parameter.schema as Schema | undefined;
    const example = parameter.example ?? schema?.example;
    if (parameter.required || example === undefined) continue;
    delete parameter.example;
    if (schema) delete schema.example;
    const text = `E.g. \`${typeof example === 'string' ? example : JSON.stringify(example)}\`.`;
    parameter.description = parameter.description ? `${parameter.description} ${text}` : text;
  }
}

function finishOperation(method: string, operation: OperationObject): void {
  describeOptionalExamples(operation);
  const extensions = operation as unknown as Record<string, unknown>;
  const everyResponse = (extensions[EVERY_RESPONSE_HEADERS_EXTENSION] as HeadersObject | undefined) ?? {};
  const onSuccess = (extensions[SUCCESS_HEADERS_EXTENSION] as HeadersObject | undefined) ?? {};
  if (extensions[PUBLIC_EXTENSION]) operation.security = [];
  if (extensions[REQUEST_BODY_EXTENSION])
    operation.requestBody = extensions[REQUEST_BODY_EXTENSION] as RequestBodyObject;
  const scope = scopeLine(extensions);
  if (scope) operation.description = operation.description ? `${operation.description}\n\n${scope}` : scope;
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

const schemaName = (ref: string) => ref.split('/').pop()!;

/**
 * A nullable property whose schema is another one (`allOf: [$ref]`, as @nestjs/swagger writes a nullable
 * enum or object) gets that schema written out in place: OpenAPI 3.0 gives `nullable` no effect beside a
 * `$ref` or an `allOf`, so validators (Prism) would refuse the `null` the service accepts. A nullable enum
 * lists `null` among its values, as OpenAPI 3.0.3 asks.
 */
function inlineNullableReferences(schemas: Record<string, Schema>): void {
  for (const schema of Object.values(schemas)) {
    for (const property of Object.values((schema.properties ?? {}) as Record<string, Schema>)) {
      const [only, ...others] = (property.allOf ?? []) as Schema[];
      if (!property.nullable || !only || others.length > 0 || typeof only.$ref !== 'string') continue;
      const target = schemas[schemaName(only.$ref)]!;
      delete property.allOf;
      Object.assign(property, { ...target, ...property, nullable: true });
      if (Array.isArray(target.enum)) property.enum = [...(target.enum as unknown[]), null];
    }
  }
}

/** The names of the schemas `node` refers to, at any depth. */
function referencedSchemas(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) referencedSchemas(item, found);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.add(schemaName(value));
      else referencedSchemas(value, found);
    }
  }
  return found;
}

/** The request bodies of every operation. */
function requestBodies(document: OpenAPIObject): Array<RequestBodyObject | undefined> {
  return Object.values(document.paths).flatMap((item) =>
    Object.values(item).map(
      (operation) => (operation as OperationObject | undefined)?.requestBody as RequestBodyObject,
    ),
  );
}

/**
 * Every object schema a request body uses, at any depth, admits no other property: the service refuses an
 * unknown field (400 `validation_failed`), so mocks and validators built from the document must too.
 */
function closeRequestBodies(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const bodies = requestBodies(document);
  const close = (schema: Schema): void => {
    if (schema.properties) schema.additionalProperties = false;
    for (const nested of Object.values((schema.properties as Record<string, Schema> | undefined) ?? {})) close(nested);
    if (schema.items) close(schema.items as Schema);
  };
  const pending = [...referencedSchemas(bodies)];
  const closed = new Set<string>();
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (closed.has(name)) continue;
    closed.add(name);
    close(schemas[name]!);
    pending.push(...referencedSchemas(schemas[name]));
  }
}

/**
 * A merge patch's nested object (RFC 7396) merges member by member into the field's current value, which the
 * service validates whole once merged: in the patch's schema each member may be left out, an optional one may
 * be `null` (which removes it), and the description names the members that the result must have. Written out
 * in place, so that the schema of the whole object (the resource, its PUT body) keeps its required members.
 */
function optionalMergePatchMembers(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const patchBodies = requestBodies(document).flatMap((body) => {
    const schema = body?.content['application/merge-patch+json']?.schema as Schema | undefined;
    return typeof schema?.$ref === 'string' ? [schemas[schemaName(schema.$ref)]!] : [];
  });
  for (const body of new Set(patchBodies)) {
    for (const [name, property] of Object.entries((body.properties ?? {}) as Record<string, Schema>)) {
      const required = property.required as string[] | undefined;
      if (!property.properties || !required) continue;
      const members = structuredClone(property.properties) as Record<string, Schema>;
      for (const [member, schema] of Object.entries(members)) if (!required.includes(member)) schema.nullable = true;
      const result = `the ${name} that results must have ${required.map((member) => `\`${member}\``).join(', ')}.`;
      const merging = `Merged member by member into the current ${name} (RFC 7396): a member left out is kept, \`null\` removes an optional one; ${result}`;
      delete property.required;
      Object.assign(property, {
        properties: members,
        description: property.description ? `${property.description} ${merging}` : merging,
      });
    }
  }
}

function finishDocument(document: OpenAPIObject): OpenAPIObject {
  inlineNullableReferences((document.components?.schemas ?? {}) as Record<string, Schema>);
  closeRequestBodies(document);
  optionalMergePatchMembers(document);
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
