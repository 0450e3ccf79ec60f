import 'reflect-metadata';
import { prepareStart } from '@app/database';
import { bootstrapHttpApp } from '@app/http';
import { API_APP_OPTIONS } from './api-app';
import { ApiModule } from './api.module';

void bootstrapHttpApp(
  ApiModule,
  (settings) => settings.PORT,
  () => prepareStart([ApiModule], process.env),
  API_APP_OPTIONS,
);
