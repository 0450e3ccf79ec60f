// `npm run openapi`: writes each HTTP app's OpenAPI document (openapi.json for the api,
// openapi.messages.json for messages) and the typed client's types generated from them; with `--check`,
// fails when a committed file differs from what the code generates (CI runs that).
import 'reflect-metadata';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSettings } from '@app/core';
import { HttpSettings, OpenApiSettings, publicAddresses } from '@app/http';
import { messagesDocument } from '@app/messaging';
import type { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { ApiModule } from '../apps/api/src/api.module';
import { API_APP_OPTIONS } from '../apps/api/src/api-app';
import { apiDocument } from '../apps/api/src/service-document';
import { MessagesModule } from '../apps/messages/src/messages.module';
import { clientServers, clientTypes } from './client-types';

const ROOT = join(__dirname, '..', '..');

/** Builds one app's document from its module, scanned in preview mode: nothing is instantiated. */
async function documentOf(
  module: Type<unknown>,
  build: (app: INestApplication) => OpenAPIObject,
  globalPrefix?: string,
): Promise<string> {
  const app = await NestFactory.create(module, { preview: true, logger: false, abortOnError: false });
  if (globalPrefix) app.setGlobalPrefix(globalPrefix);
  try {
    return `${JSON.stringify(build(app), null, 2)}\n`;
  } finally {
    await app.close();
  }
}

async function main(): Promise<void> {
  // Defaults only, so the committed documents do not depend on whoever generates them.
  const addresses = publicAddresses(loadSettings(OpenApiSettings, {}), loadSettings(HttpSettings, {}));
  const api = await documentOf(ApiModule, (app) => apiDocument(app, addresses), API_APP_OPTIONS.globalPrefix);
  const messages = await documentOf(MessagesModule, (app) => messagesDocument(app, addresses));
  const files: Record<string, string> = {
    'openapi.json': api,
    'openapi.messages.json': messages,
    'libs/client/src/generated/api.ts': await clientTypes(JSON.parse(api)),
    'libs/client/src/generated/messages.ts': await clientTypes(JSON.parse(messages)),
    'libs/client/src/generated/servers.ts': clientServers(JSON.parse(api), JSON.parse(messages)),
  };

  const stale = Object.entries(files).filter(
    ([path, text]) => !existsSync(join(ROOT, path)) || readFileSync(join(ROOT, path), 'utf8') !== text,
  );
  if (process.argv.includes('--check')) {
    for (const [path] of stale) console.error(`${path} is stale: run \`npm run openapi\` and commit the result.`);
    if (stale.length > 0) process.exit(1);
    console.log(`${Object.keys(files).join(', ')}: up to date.`);
    return;
  }
  // Unchanged files keep their time, so the build that generated them stays fresh for the tests.
  for (const [path, text] of stale) {
    writeFileSync(join(ROOT, path), text);
    console.log(`wrote ${path}`);
  }
}

main().catch((error: Error) => {
  console.error(error);
  process.exit(1);
});
