// `npm run openapi`: writes openapi.json from the decorators of both HTTP apps; with `--check`, fails
// when the committed file differs from what the code generates (CI runs that).
import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateEnvironment } from '@app/core';
import { NestFactory } from '@nestjs/core';
import { ApiModule } from '../apps/api/src/api.module';
import { API_APP_OPTIONS } from '../apps/api/src/api-app';
import { serviceDocument } from '../apps/api/src/service-document';

const TARGET = join(__dirname, '..', '..', 'openapi.json');

async function main(): Promise<void> {
  // Defaults only, so the committed document does not depend on whoever generates it.
  const env = validateEnvironment({});
  const api = await NestFactory.create(ApiModule, { preview: true, logger: false, abortOnError: false });
  api.setGlobalPrefix(API_APP_OPTIONS.globalPrefix!);
  const generated = `${JSON.stringify(await serviceDocument(api, env), null, 2)}\n`;
  await api.close();

  if (process.argv.includes('--check')) {
    const committed = readFileSync(TARGET, 'utf8');
    if (committed !== generated) {
      console.error('openapi.json is stale: run `npm run openapi` and commit the result.');
      process.exit(1);
    }
    console.log('openapi.json is up to date.');
    return;
  }
  writeFileSync(TARGET, generated);
  console.log(`wrote ${TARGET}`);
}

main().catch((error: Error) => {
  console.error(error);
  process.exit(1);
});
