import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, OnModuleInit } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { Counter, Gauge, Histogram, register } from 'prom-client';
import { MESSAGES_QUEUE } from '../messages.queue';

export const messageJobs = new Counter({
  name: 'message_jobs_total',
  help: 'Delivery jobs finished by this worker, by result (a failed job may be retried).',
  labelNames: ['result'] as const,
});

export const messageDeliverySeconds = new Histogram({
  name: 'message_delivery_seconds',
  help: 'Time from accepting a message (202) to its being sent.',
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
});

const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed', 'completed'] as const;

/** Queue depth by state, read from Redis when Prometheus scrapes, not kept up to date in between. */
@Injectable()
export class QueueDepthMetric implements OnModuleInit {
  constructor(@InjectQueue(MESSAGES_QUEUE) private readonly queue: Queue) {}

  onModuleInit(): void {
    if (register.getSingleMetric('message_queue_jobs')) return;
    const queue = this.queue;
    new Gauge({
      name: 'message_queue_jobs',
      help: 'Jobs in the message queue, by state.',
      labelNames: ['state'] as const,
      async collect() {
        // While Redis is away the scrape still answers, without this series.
        const counts = await queue.getJobCounts(...QUEUE_STATES).catch(() => undefined);
        this.reset();
        for (const state of QUEUE_STATES) if (counts) this.set({ state }, counts[state] ?? 0);
      },
    });
  }
}
