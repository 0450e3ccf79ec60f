import 'reflect-metadata';
import { bootstrapHttpApp } from '@app/http';
import { MESSAGES_APP_OPTIONS } from './messages-app';
import { MessagesModule } from './messages.module';

void bootstrapHttpApp(MessagesModule, (settings) => settings.MESSAGES_PORT, MESSAGES_APP_OPTIONS);
