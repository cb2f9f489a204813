import type { SalesforceConfig } from '../../../config/crm';
import type { Log } from '../../../lib/logger';
import type { Crm } from '../crm';
import { connectSalesforce, records } from './salesforce-connection';
import { campaignFacts } from './salesforce-facts';
import { addCampaignMembers, campaignMembership, type MembershipSource } from './salesforce-membership';
import { peopleOf, readCampaign, summaryOf } from './salesforce-records';
import { reach, reportUrl } from './salesforce-reports';
import { isSalesforceId, soqlContains, soqlId } from './soql';

/**
 * The Salesforce adapter (GEM_CRM_PROVIDER=salesforce): the org's REST API through jsforce,
 * signed in as an External Client App with the client-credentials flow (or the JWT bearer flow);
 * every call with a deadline, failures as CrmError (salesforce-connection.ts).
 *
 * Reads: the campaign by Id; its CampaignMembers (HasResponded) with the Contact's or Lead's
 * fields as the mapping file names them, aggregated here; past campaigns of the same Type with
 * NumberOfContacts, NumberOfLeads and NumberOfResponses (salesforce-facts.ts); reach with COUNT()
 * queries. Reports open as Salesforce report templates (the mapping's report ids) with the values
 * as fv0…fvN (salesforce-reports.ts). Writes: a report's people made members of a campaign, as
 * CampaignMember rows by sObject Collections or a Bulk API 2.0 job (salesforce-membership.ts).
 */

/** Between two polls of a Bulk API 2.0 job. */
const BULK_POLL_MS = 2_000;
/** How long a Bulk API 2.0 job is polled: past it, its rows are reported as not answered in time. */
const BULK_MAX_WAIT_MS = 10 * 60_000;

export function createSalesforceCrm(
  config: SalesforceConfig,
  {
    log,
    timeoutMs,
    bulkPollMs = BULK_POLL_MS,
  }: {
    log: Pick<Log, 'warn' | 'debug'>;
    timeoutMs: number;
    /** Between two polls of a Bulk API 2.0 job (tests poll their local org faster). */
    bulkPollMs?: number;
  },
): Crm {
  const { mapping } = config;
  const people = peopleOf(mapping);
  const { call } = connectSalesforce(config, { log, timeoutMs });
  const membership: MembershipSource = {
    call,
    mapping,
    people,
    log,
    bulkPollMs,
    bulkMaxWaitMs: BULK_MAX_WAIT_MS,
  };

  return {
    provider: 'salesforce',
    sample: false,
    revenueCurrency: mapping.revenueCurrency,

    listCampaigns(q, limit) {
      const text = q.trim();
      const conditions = text === '' ? [] : [`Name LIKE ${soqlContains(text)}`];
      if (isSalesforceId(text)) conditions.push(`Id = ${soqlId(text)}`);
      const where = conditions.length > 0 ? ` WHERE ${conditions.join(' OR ')}` : '';
      const size = Math.max(1, Math.min(200, Math.floor(limit)));
      return call('list campaigns', async (conn) => {
        const { records: found } = await records(
          conn,
          `SELECT Id, Name, Type, StartDate FROM Campaign${where} ORDER BY StartDate DESC NULLS LAST, Id LIMIT ${size}`,
          size,
        );
        return found.map(summaryOf);
      });
    },

    getCampaign(campaignId) {
      if (!isSalesforceId(campaignId)) return Promise.resolve(null);
      return call('read a campaign', async (conn) => {
        const found = await readCampaign(conn, mapping, campaignId);
        return found ? summaryOf(found) : null;
      });
    },

    campaignFacts(campaignId, options) {
      if (!isSalesforceId(campaignId)) return Promise.resolve(null);
      return call('read a campaign’s facts', (conn) =>
        campaignFacts(conn, { mapping, people, log }, campaignId, options),
      );
    },

    reach(report) {
      if (!isSalesforceId(report.campaignId)) return Promise.resolve(0);
      return call(`count a ${report.type} report`, (conn) => reach(conn, people, report));
    },

    reportUrl(report) {
      return reportUrl(config.loginUrl, mapping, report);
    },

    reportContacts() {
      return Promise.resolve(null);
    },

    reportPages() {
      return null;
    },

    campaignMembership: (campaignId, report, options) =>
      campaignMembership(membership, campaignId, report, options),
    addCampaignMembers: (campaignId, report, options) =>
      addCampaignMembers(membership, campaignId, report, options),
  };
}
