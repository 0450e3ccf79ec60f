/**
 * A BullMQ queue's key prefix, the same on one Redis and on a cluster: `bull:{<queue>}`, so that every key of
 * the queue (`bull:{messages}:messages:wait`, …) carries its name as a Redis Cluster hash tag. BullMQ's scripts
 * touch several keys of a queue at once, which a cluster runs only when they share a slot; one tag per queue
 * spreads the queues over the cluster's nodes.
 */
export const queuePrefix = (queue: string) => `bull:{${queue}}`;
