import { Histogram, Registry, type RegistryContentType } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestHistogram } from './metrics';

/**
 * GEM's request histogram must scrape exactly as prom-client's own Histogram would with the same
 * observations: the same text (both formats) and the same JSON.
 */

const buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 1, 10];
const labelNames = ['method', 'route', 'status'] as const;
/** Values on the bounds (le is inclusive), between them, past the last and zero. */
const values = [0, 0.001, 0.005, 0.0050001, 0.01, 0.07, 0.1, 0.5, 1, 9.99, 10, 10.01, 300];
/** Label values a route pattern may hold, with what the text format escapes. */
const series: (readonly [string, string, string])[] = [
  ['GET', '/api/markets', '200'],
  ['POST', '/api/brief/:id', '429'],
  ['GET', 'unmatched', '404'],
  ['GET', '/api/"quoted"\\back\nslash', '200'],
];

function bothFilled() {
  const reference = new Registry<RegistryContentType>();
  const ours = new Registry<RegistryContentType>();
  const histogram = new Histogram({
    name: 'h_seconds',
    help: 'Help with "quotes" and \\ too.',
    labelNames,
    buckets,
    registers: [reference],
  });
  const request = new RequestHistogram('h_seconds', 'Help with "quotes" and \\ too.', labelNames, buckets);
  request.registerIn(ours);
  let labelCalls = 0;
  values.forEach((value, i) => {
    for (const [j, labels] of series.entries()) {
      if ((i + j) % 3 === 0) continue; // not every series sees every value
      histogram.labels(...labels).observe(value);
      request.observe(labels.join(' '), () => ((labelCalls += 1), labels), value);
    }
  });
  return { reference, ours, request, labelCalls };
}

describe('the request histogram', () => {
  it('scrapes as prom-client’s Histogram does, in text, OpenMetrics and JSON', async () => {
    const { reference, ours, labelCalls } = bothFilled();
    expect(labelCalls).toBe(series.length);
    expect(await ours.metrics()).toBe(await reference.metrics());
    // As JSON, apart from the exemplars GEM never records (prom-client writes them as null).
    const json = (metrics: unknown) =>
      JSON.parse(JSON.stringify(metrics, (k, v: unknown) => (k === 'exemplar' ? undefined : v)));
    expect(json(await ours.getMetricsAsJSON())).toEqual(json(await reference.getMetricsAsJSON()));
    reference.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
    ours.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
    expect(await ours.metrics()).toBe(await reference.metrics());
    // Sanity: the text holds the counts, not just matching emptiness.
    expect(await ours.metrics()).toContain(
      'h_seconds_bucket{le="+Inf",method="GET",route="/api/markets",status="200"}',
    );
  });

  it('is emptied by the registry’s reset, and counts again afterwards', async () => {
    const { reference, ours, request } = bothFilled();
    reference.resetMetrics();
    ours.resetMetrics();
    expect(await ours.metrics()).toBe(await reference.metrics());
    request.observe('a', () => ['GET', '/a', '200'], 0.02);
    expect(await ours.metrics()).toContain('h_seconds_count{method="GET",route="/a",status="200"} 1');
  });

  it('refuses a second metric of its name in a registry, as prom-client does', () => {
    const registry = new Registry();
    new RequestHistogram('h_seconds', 'h', labelNames, buckets).registerIn(registry);
    expect(() => new Histogram({ name: 'h_seconds', help: 'h', registers: [registry] })).toThrow(
      /already been registered/,
    );
  });
});
