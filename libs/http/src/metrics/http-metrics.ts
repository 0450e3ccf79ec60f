import type { NextFunction, Request, Response } from 'express';
import { Counter, Histogram } from 'prom-client';

const requests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, route and status.',
  labelNames: ['method', 'route', 'status'] as const,
});

const duration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time to answer HTTP requests, by method, route and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
});

type Labels = { method: string; route: string; status: string };

/** Labelled children are looked up once per (method, route, status), not on every request. */
const children = new Map<string, { count: () => void; observe: (seconds: number) => void }>();

function seriesFor(labels: Labels) {
  const id = `${labels.method} ${labels.route} ${labels.status}`;
  let series = children.get(id);
  if (!series) {
    const counter = requests.labels(labels);
    const histogram = duration.labels(labels);
    series = { count: () => counter.inc(), observe: (seconds) => histogram.observe(seconds) };
    children.set(id, series);
  }
  return series;
}

/**
 * Counts and times every request. Labelled by the matched route pattern (`/v1/pets/:petId`), never
 * the raw path, so ids and probes of unknown paths cannot blow up the series count.
 */
export function httpMetrics(request: Request, response: Response, next: NextFunction): void {
  const started = process.hrtime.bigint();
  response.on('finish', () => {
    const route = (request.route as { path?: string } | undefined)?.path;
    const labels = {
      method: request.method,
      route: route ? `${request.baseUrl}${route}` : 'unmatched',
      status: String(response.statusCode),
    };
    const series = seriesFor(labels);
    series.count();
    series.observe(Number(process.hrtime.bigint() - started) / 1e9);
  });
  next();
}
