import { collectDefaultMetrics, register } from 'prom-client';

/** Process metrics (CPU, memory, event-loop lag), registered once per process. */
export function collectProcessMetrics(app: string): void {
  if (register.getSingleMetric('process_cpu_seconds_total')) return;
  register.setDefaultLabels({ app });
  collectDefaultMetrics();
}
