// Prometheus metrics (docs/metrics.md): the registry and its events, the scrape routes, the counted wrappers.
export { createMetrics, metricsEnabled, metricsFor, noMetrics, type Metrics, type QueueFigures, type ScrapeSources } from './metrics.ts';
export { queueFigures } from './queue-store.ts';
export { startMetricsServer, useMetrics, type MetricsServer } from './routes.ts';
export { countedCredits, countedMailer, countedModel, countedTranslator } from './instrument.ts';
