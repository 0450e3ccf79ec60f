// Entry point for the TypeORM CLI (`npm run migration:*`), which expects a default-exported DataSource.
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadSettings } from '@app/core';
import { DatabaseSettings } from './database.settings';
import { migrationDataSourceOptions } from './data-source-options';

export default new DataSource(migrationDataSourceOptions(loadSettings(DatabaseSettings, process.env)));
