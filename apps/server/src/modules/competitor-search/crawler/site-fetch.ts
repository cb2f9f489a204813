import type { AddressPolicy } from '../../../integrations/http/address-policy';
import {
  describeUrl,
  safeFetch,
  type FetchResult,
  type Validators,
} from '../../../integrations/http/safe-fetch';
import { Declined } from './crawl-errors';
import type { HostGate } from './politeness';
import { allowEverything, CRAWLER_USER_AGENT, type RobotsRules } from './robots';

/**
 * Every request of a competitor's round: on the site's origin only (every redirect hop too),
 * robots.txt obeyed, one at a time per host with the politeness pause (politeness.ts), through
 * the SSRF-safe fetch.
 */

export type SiteGetOptions = {
  /** A conditional GET: the index's validators for the URL. */
  validators?: Validators;
  /** robots.txt itself, which no rule can disallow. */
  isRobots?: boolean;
  /** Takes the body as it arrives (sitemaps); false stops the reading. */
  onData?: (chunk: Buffer) => boolean;
};

export type SiteFetch = {
  get(url: string, maxBytes: number, accept: string, options?: SiteGetOptions): Promise<FetchResult>;
  /** From now on: the site's robots.txt, and its Crawl-delay when longer than the configured pause. */
  obey(robots: RobotsRules): void;
  /** The rules obeyed: everything is allowed until `obey`. */
  readonly robots: RobotsRules;
};

export function createSiteFetch(options: {
  origin: string;
  signal: AbortSignal;
  gate: HostGate;
  /** The configured pause between two requests to the host. */
  delayMs: number;
  isPermittedAddress: AddressPolicy;
  timeoutMs: number;
}): SiteFetch {
  const { origin, signal, gate } = options;
  let robots: RobotsRules = allowEverything;
  let gapMs = options.delayMs;

  return {
    get: (url, maxBytes, accept, { validators, isRobots = false, onData } = {}) =>
      safeFetch(url, {
        isPermittedAddress: options.isPermittedAddress,
        timeoutMs: options.timeoutMs,
        maxBytes,
        userAgent: CRAWLER_USER_AGENT,
        accept,
        validators,
        onData,
        signal,
        beforeRequest: async (target) => {
          if (target.origin !== origin)
            throw new Declined(`${describeUrl(url)} leads off the site, to ${describeUrl(target.href)}`);
          if (!isRobots && !robots.allows(target.href))
            throw new Declined(`robots.txt disallows ${describeUrl(target.href)}`);
          await gate.wait(target.host, gapMs, signal);
        },
      }),
    obey(rules) {
      robots = rules;
      if (rules.crawlDelayMs !== undefined && rules.crawlDelayMs > gapMs) gapMs = rules.crawlDelayMs;
    },
    get robots() {
      return robots;
    },
  };
}
