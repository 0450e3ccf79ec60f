export * from './idempotency.errors';
export * from './idempotent.decorator';
export * from './idempotency-keys.purger';
export * from './idempotency.module';
export * from './secret-response';
export * from './idempotency.settings';
export { admitStreamedBody } from './idempotency.interceptor';
