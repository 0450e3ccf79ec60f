import 'reflect-metadata';
import { migrateOnStart } from '@app/database';
import { bootstrapHttpApp } from '@app/http';
import { API_APP_OPTIONS } from './api-app';
import { ApiModule } from './api.module';

void bootstrapHttpApp(
  ApiModule,
  (settings) => settings.PORT,
  () => migrateOnStart(process.env),
  API_APP_OPTIONS,
);
