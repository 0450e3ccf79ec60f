export * from './client';
export * from './pagination';
export * from './photos';
export * from './retry';
export * from './webhooks';
export type { components as ApiComponents, operations as ApiOperations, paths as ApiPaths } from './generated/api';
export type {
  components as MessagesComponents,
  operations as MessagesOperations,
  paths as MessagesPaths,
} from './generated/messages';
export { SERVERS } from './generated/servers';
