import 'reflect-metadata';
import { prepareStart } from '@app/database';
import { bootstrapHttpApp } from '@app/http';
import { MESSAGES_APP_OPTIONS } from './messages-app';
import { MessagesModule } from './messages.module';

void bootstrapHttpApp(
  MessagesModule,
  (settings) => settings.MESSAGES_PORT,
  () => prepareStart([MessagesModule], process.env),
  MESSAGES_APP_OPTIONS,
);
