export * from './data-source-options';
export * from './insert-batcher';
export * from './prepare-database';
export * from './row-locks';
export * from './sql';
export * from './advisory-locks';
export * from './batcher';
export * from './database.module';
