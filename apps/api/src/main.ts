import 'reflect-metadata';
import { bootstrapHttpApp } from '@app/http';
import { API_APP_OPTIONS } from './api-app';
import { ApiModule } from './api.module';

void bootstrapHttpApp(ApiModule, (settings) => settings.PORT, API_APP_OPTIONS);
