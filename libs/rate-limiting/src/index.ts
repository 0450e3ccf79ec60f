export * from './rate-limit.guard';
export * from './rate-limit.keys';
export * from './rate-limit.store';
export * from './rate-limiting.errors';
export * from './rate-limiting.module';
export * from './rate-windows';
export * from './rate-limit.settings';
