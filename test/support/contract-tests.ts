type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** What every answer is checked for: its status, and a JSON body of its documented schema. */
const ANSWER_TESTS = {
  contractTests: [
    {
      statusCode: { enabled: true },
      contentType: { enabled: true },
      jsonBody: { enabled: true },
      schemaValidation: { enabled: true },
    },
  ],
};

interface Operation {
  id: string;
  method: string;
  path: string;
  operation: Json;
}

function operationsOf(document: Json): Operation[] {
  return Object.entries<Json>(document.paths).flatMap(([path, item]) =>
    Object.entries<Json>(item).map(([method, operation]) => ({ id: operation.operationId, method, path, operation })),
  );
}

function resolved(document: Json, schema: Json | undefined): Json | undefined {
  if (!schema?.$ref) return schema;
  return document.components.schemas[(schema.$ref as string).split('/').pop()!];
}

/** A value no field of `schema` takes: another JSON type. */
function wrongType(schema: Json): unknown {
  if (schema.enum) return 12345;
  switch (schema.type) {
    case 'integer':
    case 'number':
      return 'not a number';
    case 'boolean':
      return 'yes';
    case 'array':
      return 'not a list';
    case 'object':
      return 'not an object';
    default:
      return 12345;
  }
}

/** Text no query parameter of `schema` accepts, or none where any text is a value of it. */
function wrongQueryValue(schema: Json): string | undefined {
  if (schema.enum) return 'not-one-of-them';
  if (schema.type === 'integer' || schema.type === 'number') return 'not-a-number';
  if (schema.type === 'boolean') return 'yes';
  return undefined;
}

/** A well-formed id that names nothing: the example of a string id, a large number for an integer one. */
function unknownId(schema: Json): string {
  return schema.type === 'integer' ? '999999999' : String(schema.example ?? 'unknown');
}

const variation = (
  operation: Operation,
  status: number,
  variations: Array<{ name: string; overwrites?: Json[]; fuzzing?: Json[] }>,
): Json => ({
  openApiOperationId: operation.id,
  openApiResponse: String(status),
  variations: variations.map((each) => ({ ...each, tests: ANSWER_TESTS })),
});

/**
 * Variations Portman adds to every operation, derived from the document: without a key (401), with ids that
 * name nothing (404), with each body field and each query parameter of another type (400), and Portman's own
 * fuzzing of required fields, bounds and lengths (400). Each must get its documented error.
 */
export function variationTests(document: Json): Json[] {
  const tests: Json[] = [];
  for (const operation of operationsOf(document)) {
    const { operation: spec } = operation;
    const documented = (status: number) => spec.responses[String(status)] !== undefined;
    if (spec.security?.length !== 0 && documented(401))
      tests.push(
        variation(operation, 401, [
          { name: 'Without a key', overwrites: [{ overwriteRequestSecurity: { remove: true } }] },
        ]),
      );

    const pathParameters = (spec.parameters ?? []).filter((parameter: Json) => parameter.in === 'path');
    if (pathParameters.length > 0 && documented(404))
      tests.push(
        variation(operation, 404, [
          {
            name: 'Naming nothing',
            overwrites: [
              {
                overwriteRequestPathVariables: pathParameters.map((parameter: Json) => ({
                  key: parameter.name,
                  value: unknownId(parameter.schema),
                })),
              },
            ],
          },
        ]),
      );

    if (!documented(400)) continue;
    const wrongQueries = (spec.parameters ?? [])
      .filter((parameter: Json) => parameter.in === 'query')
      .map((parameter: Json) => [parameter.name, wrongQueryValue(parameter.schema)])
      .filter(([, value]: [string, string | undefined]) => value !== undefined);
    const body = resolved(document, spec.requestBody?.content?.['application/json']?.schema);
    const fields = Object.entries<Json>(body?.properties ?? {});
    const variations = [
      ...wrongQueries.map(([name, value]: [string, string]) => ({
        name: `Query ${name} of another type`,
        overwrites: [{ overwriteRequestQueryParams: [{ key: name, value }] }],
      })),
      ...fields.map(([name, schema]) => ({
        name: `Field ${name} of another type`,
        overwrites: [{ overwriteRequestBody: [{ key: name, value: wrongType(schema) }] }],
      })),
    ];
    if (body || wrongQueries.length > 0)
      variations.push({
        name: 'Fuzzed',
        fuzzing: [
          {
            ...(body && { requestBody: [FUZZ] }),
            requestQueryParams: [{ ...FUZZ, requiredFields: { enabled: false } }],
          },
        ],
      } as (typeof variations)[number]);
    if (variations.length > 0) tests.push(variation(operation, 400, variations));
  }
  return tests;
}

const FUZZ = {
  requiredFields: { enabled: true },
  minimumNumberFields: { enabled: true },
  maximumNumberFields: { enabled: true },
  minLengthFields: { enabled: true },
  maxLengthFields: { enabled: true },
};
