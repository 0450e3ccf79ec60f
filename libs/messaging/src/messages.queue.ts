/** The BullMQ queue that carries message deliveries, and its job names: used nowhere else as literals. */
export const MESSAGES_QUEUE = 'messages';
export const DELIVER_MESSAGE_JOB = 'deliver';
/** Injection token of the queue's own request-path connection to Redis. */
export const QUEUE_REDIS = Symbol('QUEUE_REDIS');

/** The job id is the message id as well, so enqueueing a message again adds no second job. */
export interface DeliverMessageJobData {
  messageId: string;
}
