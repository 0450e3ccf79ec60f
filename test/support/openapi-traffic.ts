import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { NextFunction, Request, Response } from 'express';

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Paths an app serves outside its document, by design. */
const UNDOCUMENTED = ['/health/', '/metrics', '/docs', '/queues'];

interface Route {
  method: string;
  pattern: RegExp;
  template: string;
  operation: Doc;
}

/**
 * A strict OpenAPI 3.0 check of every exchange an e2e suite has with an app, as a validating proxy (Prism)
 * would make it: each answer must be a documented status whose body matches its schema, and each request the
 * service accepted (2xx) must match the operation's parameters and body schema. A request the service accepted
 * that the document refuses would be refused by mocks and generated validators; an answer outside the
 * document would surprise every generated client.
 */
export class OpenApiTraffic {
  readonly violations: string[] = [];
  private readonly routes: Route[];
  /** Parameters arrive as text: compared after conversion to the schema's type, as Prism does. */
  private readonly parameters = new Ajv({ strict: false, allErrors: true, coerceTypes: true });
  private readonly bodies = new Ajv({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  /** `file` is a committed document (`openapi.json`); `prefix` the path its `servers` end in (`/v1`). */
  constructor(
    file: string,
    private readonly prefix = '',
  ) {
    const document = JSON.parse(readFileSync(join(__dirname, '..', '..', file), 'utf8')) as Doc;
    for (const ajv of [this.parameters, this.bodies]) {
      addFormats(ajv);
      for (const format of ['int32', 'int64', 'float', 'double']) ajv.addFormat(format, true);
      ajv.addSchema({ $id: 'openapi', components: document.components });
    }
    this.routes = Object.entries<Doc>(document.paths).flatMap(([template, item]) =>
      Object.entries<Doc>(item).map(([method, operation]) => ({
        method: method.toUpperCase(),
        template,
        operation,
        pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '([^/]+)')}$`),
      })),
    );
  }

  /** Mounted ahead of everything else; checks each exchange once its answer is sent. */
  readonly middleware = (request: Request, response: Response, next: NextFunction): void => {
    const chunks: Buffer[] = [];
    const write = response.write.bind(response) as (...args: unknown[]) => boolean;
    const end = response.end.bind(response) as (...args: unknown[]) => Response;
    const keep = (chunk: unknown) => {
      if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk as string));
    };
    response.write = ((...args: unknown[]) => (keep(args[0]), write(...args))) as Response['write'];
    response.end = ((...args: unknown[]) => (keep(args[0]), end(...args))) as Response['end'];
    response.on('finish', () => this.check(request, response, Buffer.concat(chunks).toString('utf8')));
    next();
  };

  private check(request: Request, response: Response, text: string): void {
    const url = new URL(request.originalUrl, 'http://app');
    if (UNDOCUMENTED.some((path) => url.pathname.startsWith(path))) return;
    const path = url.pathname.startsWith(`${this.prefix}/`) ? url.pathname.slice(this.prefix.length) : url.pathname;
    const routes = this.routes.filter((route) => route.pattern.test(path));
    const route = routes.find((each) => each.method === request.method);
    const exchange = `${request.method} ${url.pathname}${url.search} → ${response.statusCode}`;
    // Unknown routes and methods answer 404 and 405, which no operation documents.
    if (!route)
      return this.expect(response.statusCode === 404 || response.statusCode === 405, exchange, 'not in the document');
    const status = String(response.statusCode);
    const documented = route.operation.responses[status] ?? route.operation.responses.default;
    if (!documented) return this.expect(false, exchange, `status ${status} is not documented`);
    const type = String(response.getHeader('content-type') ?? '').split(';')[0]!;
    const schema = documented.content?.[type]?.schema;
    if (text && schema) this.validate(this.bodies, schema, JSON.parse(text), exchange, 'response body');
    else if (text && response.statusCode !== 304) this.expect(false, exchange, `no ${type} body is documented`);
    if (response.statusCode >= 200 && response.statusCode < 300) this.checkRequest(request, url, path, route, exchange);
  }

  private checkRequest(request: Request, url: URL, path: string, route: Route, exchange: string): void {
    const parameters: Doc[] = route.operation.parameters ?? [];
    const pathValues = route.pattern.exec(path)!.slice(1);
    const names = [...route.template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
    const given: Record<string, Record<string, unknown>> = {
      path: Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(pathValues[index]!)])),
      query: Object.fromEntries(url.searchParams),
      header: Object.fromEntries(parameters.map((p) => [p.name, request.get(p.name)]).filter(([, v]) => v)),
    };
    for (const name of Object.keys(given.query!))
      if (!parameters.some((p) => p.in === 'query' && p.name === name))
        this.expect(false, exchange, `query parameter ${name} is not documented`);
    for (const parameter of parameters) {
      const value = given[parameter.in]?.[parameter.name];
      if (value === undefined) this.expect(!parameter.required, exchange, `${parameter.name} is required`);
      else this.validate(this.parameters, parameter.schema, value, exchange, `${parameter.in} ${parameter.name}`);
    }
    const body = route.operation.requestBody;
    const type = (request.get('content-type') ?? '').split(';')[0]!.trim();
    if (body && type) {
      const schema = body.content[type]?.schema;
      if (!schema) this.expect(false, exchange, `request body type ${type} is not documented`);
      else this.validate(this.bodies, schema, request.body, exchange, 'request body');
    }
  }

  private validate(ajv: Ajv, schema: Doc, value: unknown, exchange: string, what: string): void {
    const text = JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/');
    let validate = this.compiled.get(text);
    if (!validate) this.compiled.set(text, (validate = ajv.compile(JSON.parse(text) as object)));
    if (!validate(value)) this.expect(false, exchange, `${what}: ${ajv.errorsText(validate.errors)}`);
  }

  private expect(holds: boolean, exchange: string, violation: string): void {
    if (!holds) this.violations.push(`${exchange}: ${violation}`);
  }
}
