import { AccountsModule } from '@app/accounts';
import { CoreModule, Environment } from '@app/core';
import { createOpenApiDocument } from '@app/http';
import { IdempotencyModule } from '@app/idempotency';
import { MessagesHttpModule, withMessagesServer } from '@app/messaging';
import { INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';

/** The message operations and what they depend on: scanned in preview mode, nothing is instantiated. */
@Module({ imports: [CoreModule, IdempotencyModule, AccountsModule, MessagesHttpModule] })
class MessagesDocumentModule {}

/**
 * The one OpenAPI document of the service: the api's operations under the `/v1` servers, and the
 * message operations with their own `servers` entry. Served at /docs and written to openapi.json.
 */
export async function serviceDocument(api: INestApplication, env: Environment): Promise<OpenAPIObject> {
  const document = createOpenApiDocument(api, env);
  const messagesApp = await NestFactory.create(MessagesDocumentModule, {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  try {
    const messages = withMessagesServer(createOpenApiDocument(messagesApp, env), env);
    document.paths = { ...document.paths, ...messages.paths };
    document.components = {
      ...document.components,
      schemas: { ...document.components?.schemas, ...messages.components?.schemas },
    };
    return document;
  } finally {
    await messagesApp.close();
  }
}
