import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { FactoryProvider, InjectionToken } from '@nestjs/common';
import { WORKER_REDIS } from '../redis/redis.module';
import { queuePrefix } from './queue-prefix';

/** A worker's options, as `@Processor` takes them (the type is not exported by name). */
export type ProcessorWorkerOptions = NonNullable<Parameters<typeof Processor>[1]>;

/**
 * Provides a processor whose worker options (its concurrency, its locks) come from settings, connected with
 * `WORKER_REDIS` under its queue's prefix.
 * `@Processor` takes its options when the class is declared, before any setting is read: so the factory
 * applies it to a subclass made once the settings are known, and the explorer of `@nestjs/bullmq` finds
 * the worker on the instance's class as usual. Register it in the worker only.
 */
export function configuredProcessor<T extends WorkerHost, Args extends unknown[]>(options: {
  processor: new (...args: Args) => T;
  queue: string;
  inject: InjectionToken[];
  /** From the injected values, in `inject`'s order: the worker's options (but its connection) and the processor's arguments. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Nest injects by token: the values' types are the caller's to state.
  configure: (...injected: any[]) => { worker: ProcessorWorkerOptions; args: Args };
}): FactoryProvider<T> {
  return {
    provide: options.processor,
    inject: [...options.inject, WORKER_REDIS],
    useFactory: (...injected: unknown[]) => {
      const connection = injected.pop() as ProcessorWorkerOptions['connection'];
      const { worker, args } = options.configure(...injected);
      // A concrete processor class, as `processor` is: its subclass adds nothing but the decorator's metadata.
      const Configured = class extends (options.processor as unknown as new (...args: Args) => object) {};
      Processor(options.queue, { ...worker, connection, prefix: queuePrefix(options.queue) })(Configured);
      return new Configured(...args) as T;
    },
  };
}
