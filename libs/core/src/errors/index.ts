export * from './app-error';
export * from './common.errors';
export * from './error-body.dto';
export * from './temporary-failures';
