export * from './email-lists';
export * from './email-openapi';
export * from './email-report';
export * from './email.module';
export * from './email.outbox';
export * from './email.settings';
export { DIGEST_MAX_PETS } from './templates/saved-search-digest.template';
