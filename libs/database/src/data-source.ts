// Entry point for the TypeORM CLI (`npm run migration:*`), which expects a default-exported DataSource.
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { validateEnvironment } from '@app/core';
import { migrationDataSourceOptions } from './data-source-options';

export default new DataSource(migrationDataSourceOptions(validateEnvironment(process.env)));
