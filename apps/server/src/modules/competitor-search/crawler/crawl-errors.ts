import { HttpFetchError } from '../../../integrations/http/safe-fetch';
import { PageParseError } from './page-parser';
import { SitemapError } from './sitemaps';

/** Why a crawl request failed or was not sent, in words for people. */

/** A request the crawler itself declines (robots.txt, off the site): not the site's fault. */
export class Declined extends Error {
  override name = 'Declined';
}

/** The competitor's round cannot go on (robots.txt unreadable, the site asks for a long pause). */
export class RoundStopped extends Error {
  override name = 'RoundStopped';
}

/** The HTTP status a failed fetch was answered with; undefined when the site answered none. */
export const httpStatusOf = (err: unknown): number | undefined =>
  err instanceof HttpFetchError ? err.httpStatus : undefined;

/** Words for a failed fetch that a person reading `gem competitors status` understands. */
export function reasonOf(err: unknown): string {
  if (err instanceof HttpFetchError) {
    if (err.reason === 'blocked_address') {
      return `${err.message} (set GEM_COMPETITORS_ALLOW_PRIVATE_HOSTS=true only for hosts on your own network)`;
    }
    if (err.reason === 'too_large') return err.message.replace('the document', 'the page');
    return err.message;
  }
  if (
    err instanceof PageParseError ||
    err instanceof SitemapError ||
    err instanceof Declined ||
    err instanceof RoundStopped
  )
    return err.message;
  return 'an unexpected error (see the server log)';
}
