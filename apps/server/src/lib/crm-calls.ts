import { CrmError, type Crm } from '../integrations/crm/crm';
import { AppError } from './app-error';
import type { Log } from './logger';

/**
 * What the features that call the CRM share (the audience builder, a campaign's audience): the
 * log they write to, and a CRM call whose failure becomes the user's 502 (the cause logged), with
 * the texts for a CRM that failed and a campaign it does not have.
 */

export type Logger = Pick<Log, 'info' | 'warn' | 'error'>;

export const CRM_UNAVAILABLE = 'The CRM is not available right now. Please try again in a moment.';
export const noSuchCampaign = (id: string) =>
  `No campaign has the ID ${id}. Check the ID in the CRM, or pick a campaign from the list.`;

/** A CRM call, `what` naming it in the log. */
export type FromCrm = <T>(log: Logger, what: string, call: () => Promise<T>) => Promise<T>;

export function crmCaller(crm: Pick<Crm, 'provider'>): FromCrm {
  /** A CRM call; its failure becomes a 502 crm_unavailable, the cause logged. */
  return async function fromCrm<T>(log: Logger, what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof CrmError)) throw err;
      log.error({ err, crm: crm.provider, failure: err.failure }, `CRM call failed: ${what}`);
      throw new AppError(502, 'crm_unavailable', CRM_UNAVAILABLE, undefined, { cause: err });
    }
  };
}
