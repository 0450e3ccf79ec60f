export * from './delivery/messages.processor';
export * from './delivery/messaging-worker.module';
export * from './dto/message.dto';
export * from './message-status';
export * from './messages-http.module';
export * from './messages-openapi';
export * from './messages.queue';
export { MESSAGE_SEQS_LOCK } from './messages.repository';
export * from './messaging.module';
