import 'reflect-metadata';
import { bootstrapHttpApp } from '@app/http';
import { MESSAGES_APP_OPTIONS } from './messages-app';
import { MessagesModule } from './messages.module';

void bootstrapHttpApp(MessagesModule, (env) => env.MESSAGES_PORT, MESSAGES_APP_OPTIONS);
