import {
  keyPrefixes,
  parseCsv,
  salesforceId,
  startSalesforceServer,
  type SalesforceData,
  type SalesforceServer,
} from '@gem/test-servers/salesforce-server';
import { generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

// The local Salesforce org (the test-servers package has no test project of its own), driven
// with plain fetch the way jsforce drives a real org: client-credentials token, REST query and
// query-more paging, describe, and Salesforce's error bodies.

type QueryResult = {
  totalSize: number;
  done: boolean;
  nextRecordsUrl?: string;
  records: Record<string, unknown>[];
};
type RestError = { message: string; errorCode: string }[];

const campaignId = salesforceId(keyPrefixes.Campaign, 1);
const pastCampaignId = salesforceId(keyPrefixes.Campaign, 2);
const accountId = salesforceId(keyPrefixes.Account, 1);
const memberCount = 4_500;

function orgData(): SalesforceData {
  const contacts = Array.from({ length: memberCount }, (_, i) => ({
    Id: salesforceId(keyPrefixes.Contact, i + 1),
    FirstName: 'Anna',
    LastName: `Nowak ${i + 1}`,
    Title: i % 2 === 0 ? 'CFO' : 'Head of Tax',
    Department: 'Finance',
    Work_Area__c: 'Tax',
    AccountId: i === 0 ? null : accountId,
  }));
  return {
    Account: [{ Id: accountId, Name: 'Orlen', Industry: 'Energy', Sub_Industry__c: 'Oil & Gas' }],
    Contact: contacts,
    Lead: [
      {
        Id: salesforceId(keyPrefixes.Lead, 1),
        LastName: "O'Brien",
        Company: 'Acme',
        Title: 'CEO',
        Industry: 'Retail',
      },
    ],
    Campaign: [
      {
        Id: campaignId,
        Name: 'ESG webinar Q3',
        Type: 'Webinar',
        Status: 'Planned',
        StartDate: '2026-09-01',
        IsActive: true,
      },
      {
        Id: pastCampaignId,
        Name: "CFO's breakfast",
        Type: 'Webinar',
        Status: 'Completed',
        StartDate: '2025-03-01',
        IsActive: false,
      },
    ],
    CampaignMember: [
      ...contacts.map((c, i) => ({
        Id: salesforceId(keyPrefixes.CampaignMember, i + 1),
        CampaignId: campaignId,
        ContactId: c.Id,
        LeadId: null,
        Status: i % 3 === 0 ? 'Responded' : 'Sent',
        HasResponded: i % 3 === 0,
      })),
      {
        Id: salesforceId(keyPrefixes.CampaignMember, memberCount + 1),
        CampaignId: pastCampaignId,
        ContactId: null,
        LeadId: salesforceId(keyPrefixes.Lead, 1),
        Status: 'Sent',
        HasResponded: false,
      },
    ],
  };
}

describe.runIf(inject('dbKind') === 'pglite')('the Salesforce test server', () => {
  let sf: SalesforceServer;
  const version = '62.0';

  beforeAll(async () => {
    sf = await startSalesforceServer({ data: orgData() });
  });
  afterAll(() => sf.close());

  const token = async (init?: { form?: Record<string, string>; basic?: string }) => {
    const res = await fetch(sf.tokenUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(init?.basic ? { authorization: `Basic ${init.basic}` } : {}),
      },
      body: new URLSearchParams(
        init?.form ?? {
          grant_type: 'client_credentials',
          client_id: sf.clientId,
          client_secret: sf.clientSecret,
        },
      ).toString(),
    });
    return { status: res.status, body: (await res.json()) as Record<string, string> };
  };
  const accessToken = async () => (await token()).body.access_token!;

  const get = async <T>(path: string, bearer: string) => {
    const res = await fetch(new URL(path, sf.url), { headers: { authorization: `Bearer ${bearer}` } });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    return { status: res.status, body: (await res.json()) as T };
  };
  const query = <T = QueryResult>(soql: string, bearer: string) =>
    get<T>(`/services/data/v${version}/query?q=${encodeURIComponent(soql)}`, bearer);
  const escapeSoql = (value: string) => value.replaceAll('\\', '\\\\').replaceAll("'", "\\'");

  it('issues a client-credentials token from the form body or Basic auth, and refuses wrong credentials', async () => {
    const fromForm = await token();
    expect(fromForm.status).toBe(200);
    expect(fromForm.body).toMatchObject({
      instance_url: sf.url,
      id: `${sf.url}/id/${sf.orgId}/${sf.userId}`,
      token_type: 'Bearer',
      scope: 'api',
    });
    expect(fromForm.body.access_token).toMatch(/^00D\w{12}!/);
    expect(fromForm.body.issued_at).toMatch(/^\d{13}$/);
    expect(fromForm.body.signature).toBeTruthy();

    const basic = Buffer.from(`${sf.clientId}:${sf.clientSecret}`).toString('base64');
    const fromBasic = await token({ form: { grant_type: 'client_credentials' }, basic });
    expect(fromBasic.status).toBe(200);

    const wrongSecret = await token({
      form: { grant_type: 'client_credentials', client_id: sf.clientId, client_secret: 'nope' },
    });
    expect(wrongSecret).toEqual({
      status: 400,
      body: { error: 'invalid_client', error_description: 'invalid client credentials' },
    });
    const wrongId = await token({
      form: { grant_type: 'client_credentials', client_id: 'x', client_secret: 'y' },
    });
    expect(wrongId.body.error).toBe('invalid_client_id');
    const password = await token({ form: { grant_type: 'password', username: 'u', password: 'p' } });
    expect(password.body.error).toBe('unsupported_grant_type');
  });

  it('answers a query with relationship fields nested as the REST API nests them', async () => {
    const bearer = await accessToken();
    const campaign = await query(
      `SELECT Id, Name, Type, StartDate FROM Campaign WHERE Id = '${campaignId}' LIMIT 1`,
      bearer,
    );
    expect(campaign).toEqual({
      status: 200,
      body: {
        totalSize: 1,
        done: true,
        records: [
          {
            attributes: {
              type: 'Campaign',
              url: `/services/data/v${version}/sobjects/Campaign/${campaignId}`,
            },
            Id: campaignId,
            Name: 'ESG webinar Q3',
            Type: 'Webinar',
            StartDate: '2026-09-01',
          },
        ],
      },
    });

    const members = await query(
      `SELECT Id, Status, HasResponded, Contact.Title, Contact.Department, Contact.Work_Area__c, ` +
        `Contact.Account.Industry, Contact.Account.Sub_Industry__c, Lead.Company FROM CampaignMember ` +
        `WHERE CampaignId = '${campaignId}' AND HasResponded = true ORDER BY Contact.LastName DESC LIMIT 2`,
      bearer,
    );
    expect(members.status).toBe(200);
    expect(members.body.totalSize).toBe(2);
    const [first] = members.body.records;
    expect(first).toMatchObject({
      attributes: { type: 'CampaignMember' },
      Status: 'Responded',
      HasResponded: true,
      Contact: {
        attributes: { type: 'Contact' },
        Title: expect.any(String),
        Department: 'Finance',
        Work_Area__c: 'Tax',
        Account: { attributes: { type: 'Account' }, Industry: 'Energy', Sub_Industry__c: 'Oil & Gas' },
      },
      Lead: null,
    });

    // A contact without an account: the relationship is null, not an empty object.
    const orphan = await query(
      `SELECT Contact.Account.Industry FROM CampaignMember WHERE ContactId = '${salesforceId(keyPrefixes.Contact, 1)}'`,
      bearer,
    );
    expect(orphan.body.records[0]).toMatchObject({ Contact: { Account: null } });

    // Past campaigns of the same Type, and COUNT().
    const past = await query(
      `SELECT Id FROM Campaign WHERE Type = 'webinar' AND Id != '${campaignId}' ORDER BY StartDate DESC`,
      bearer,
    );
    expect(past.body.records.map((r) => r.Id)).toEqual([pastCampaignId]);
    const count = await query(
      `SELECT COUNT() FROM CampaignMember WHERE CampaignId = '${campaignId}'`,
      bearer,
    );
    expect(count.body).toEqual({ totalSize: memberCount, done: true, records: [] });
  });

  it('pages past 2,000 records through nextRecordsUrl', async () => {
    const bearer = await accessToken();
    const first = await query(
      `SELECT Id, Contact.Title FROM CampaignMember WHERE CampaignId = '${campaignId}'`,
      bearer,
    );
    expect(first.body).toMatchObject({ totalSize: memberCount, done: false });
    expect(first.body.records).toHaveLength(2_000);
    expect(first.body.nextRecordsUrl).toMatch(
      new RegExp(`^/services/data/v${version}/query/01g\\w{15}-2000$`),
    );

    const ids = first.body.records.map((r) => r.Id);
    let next = first.body.nextRecordsUrl;
    const pages = [first.body.records.length];
    while (next) {
      const page = await get<QueryResult>(next, bearer);
      expect(page.status).toBe(200);
      expect(page.body.totalSize).toBe(memberCount);
      pages.push(page.body.records.length);
      ids.push(...page.body.records.map((r) => r.Id));
      next = page.body.nextRecordsUrl;
      if (!next) expect(page.body.done).toBe(true);
    }
    expect(pages).toEqual([2_000, 2_000, 500]);
    expect(new Set(ids).size).toBe(memberCount);

    const bad = await get<RestError>(`/services/data/v${version}/query/01gNOPE-2000`, bearer);
    expect(bad).toEqual({
      status: 400,
      body: [{ message: 'invalid query locator', errorCode: 'INVALID_QUERY_LOCATOR' }],
    });
  });

  it('describes the objects, custom fields from the data included', async () => {
    const bearer = await accessToken();
    const account = await get<{ name: string; fields: { name: string; type: string; label: string }[] }>(
      `/services/data/v${version}/sobjects/Account/describe`,
      bearer,
    );
    expect(account.status).toBe(200);
    expect(account.body.name).toBe('Account');
    expect(account.body.fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'Industry', type: 'picklist', label: 'Industry' }),
        expect.objectContaining({ name: 'Sub_Industry__c', type: 'string', custom: true }),
      ]),
    );
    const member = await get<{
      fields: { name: string; referenceTo: string[]; relationshipName: string | null }[];
    }>(`/services/data/v${version}/sobjects/CampaignMember/describe`, bearer);
    expect(member.body.fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'ContactId', referenceTo: ['Contact'], relationshipName: 'Contact' }),
        expect.objectContaining({ name: 'HasResponded', type: 'boolean' }),
      ]),
    );
    const unknown = await get<RestError>(`/services/data/v${version}/sobjects/Nope__c/describe`, bearer);
    expect(unknown).toEqual({
      status: 404,
      body: [{ errorCode: 'NOT_FOUND', message: 'The requested resource does not exist' }],
    });
  });

  it('answers malformed queries, unknown fields and objects with Salesforce’s error bodies', async () => {
    const bearer = await accessToken();
    const codeOf = async (soql: string) => {
      const res = await query<RestError>(soql, bearer);
      expect(res.status).toBe(400);
      expect(res.body).toHaveLength(1);
      return res.body[0]!;
    };
    const malformed = await codeOf('SELEC Id FROM Campaign');
    expect(malformed.errorCode).toBe('MALFORMED_QUERY');
    expect(malformed.message).toContain('ERROR at Row:1:Column:1');
    expect((await codeOf("SELECT Id FROM Campaign WHERE Name = 'unterminated")).errorCode).toBe(
      'MALFORMED_QUERY',
    );
    expect((await codeOf('SELECT Id FROM Campaign LIMIT')).errorCode).toBe('MALFORMED_QUERY');
    expect((await codeOf('SELECT Id, (SELECT Id FROM CampaignMembers) FROM Campaign')).errorCode).toBe(
      'MALFORMED_QUERY',
    );
    const field = await codeOf('SELECT Id, Goal__c FROM Campaign');
    expect(field.errorCode).toBe('INVALID_FIELD');
    expect(field.message).toContain("No such column 'Goal__c' on entity 'Campaign'");
    expect((await codeOf('SELECT Contact.Nope.Name FROM CampaignMember')).errorCode).toBe('INVALID_FIELD');
    expect((await codeOf('SELECT Id FROM Opportunity')).errorCode).toBe('INVALID_TYPE');
    expect((await codeOf("SELECT Id FROM CampaignMember WHERE HasResponded = 'true'")).errorCode).toBe(
      'INVALID_QUERY_FILTER_OPERATOR',
    );
  });

  it('refuses a value that breaks out of its literal, and finds it when escaped', async () => {
    const bearer = await accessToken();
    // Concatenated unescaped, a quote ends the literal early and the rest is stray tokens.
    const name = "CFO's breakfast";
    const naive = await query<RestError>(`SELECT Id FROM Campaign WHERE Name = '${name}'`, bearer);
    expect(naive.status).toBe(400);
    expect(naive.body[0]!.errorCode).toBe('MALFORMED_QUERY');

    // An injection through the campaign id: the literal it leaves is not an Id.
    const injectedId = `${campaignId}' OR Id != '`;
    const viaId = await query<RestError>(`SELECT Id FROM Campaign WHERE Id = '${injectedId}'`, bearer);
    expect(viaId.status).toBe(400);
    expect(viaId.body[0]).toMatchObject({ errorCode: 'INVALID_QUERY_FILTER_OPERATOR' });
    expect(viaId.body[0]!.message).toContain('invalid ID field: ');
    const escapedId = await query<RestError>(
      `SELECT Id FROM Campaign WHERE Id = '${escapeSoql(injectedId)}'`,
      bearer,
    );
    expect(escapedId.body[0]!.message).toContain(`invalid ID field: ${injectedId}`);

    // Escaped, the whole value is one literal: the server records it as sent.
    const escaped = await query(`SELECT Id FROM Campaign WHERE Name = '${escapeSoql(name)}'`, bearer);
    expect(escaped.body.records.map((r) => r.Id)).toEqual([pastCampaignId]);
    expect(sf.requests.at(-1)!.literals).toEqual([name]);
    const lead = await query(`SELECT Id FROM Lead WHERE Name LIKE '%o\\'brien%'`, bearer);
    expect(lead.body.totalSize).toBe(1);
  });

  it('answers an expired token with INVALID_SESSION_ID, and a fresh token works', async () => {
    const stale = await accessToken();
    const soql = `SELECT Id FROM Campaign WHERE Id = '${campaignId}'`;
    expect((await query(soql, stale)).status).toBe(200);
    sf.expireTokens();
    const expired = await query<RestError>(soql, stale);
    expect(expired).toEqual({
      status: 401,
      body: [{ message: 'Session expired or invalid', errorCode: 'INVALID_SESSION_ID' }],
    });
    const fresh = await accessToken();
    expect((await query(soql, fresh)).status).toBe(200);
    expect((await query(soql, stale)).status).toBe(401);
    const none = await fetch(`${sf.url}/services/data/v${version}/query?q=${encodeURIComponent(soql)}`);
    expect(none.status).toBe(401);
  });

  it('fails on demand: 503, 500 with an ErrorId, an HTML page, a hang, a token-endpoint error', async () => {
    const bearer = await accessToken();
    const soql = `SELECT Id FROM Campaign WHERE Id = '${campaignId}'`;
    sf.fail({ kind: 'error', status: 503 }, { kind: 'error', status: 500 }, { kind: 'html', status: 502 });
    const unavailable = await query<RestError>(soql, bearer);
    expect(unavailable.status).toBe(503);
    expect(unavailable.body[0]!.errorCode).toBe('SERVER_UNAVAILABLE');
    const unknown = await query<RestError>(soql, bearer);
    expect(unknown.status).toBe(500);
    expect(unknown.body[0]).toMatchObject({
      errorCode: 'UNKNOWN_EXCEPTION',
      message: expect.stringContaining('ErrorId'),
    });
    const html = await fetch(`${sf.url}/services/data/v${version}/query?q=${encodeURIComponent(soql)}`, {
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect([html.status, html.headers.get('content-type')]).toEqual([502, 'text/html']);
    expect((await query(soql, bearer)).status).toBe(200);

    sf.fail({ kind: 'hang' });
    const before = sf.requests.length;
    const aborter = new AbortController();
    const hanging = fetch(`${sf.url}/services/data/v${version}/query?q=${encodeURIComponent(soql)}`, {
      headers: { authorization: `Bearer ${bearer}` },
      signal: aborter.signal,
    });
    const arrived = await sf.whenRequested(before + 1);
    expect(arrived.status).toBeUndefined();
    aborter.abort();
    await expect(hanging).rejects.toThrow();

    sf.fail({ kind: 'error', on: 'token', status: 503 });
    expect((await token()).status).toBe(503);
    expect((await token()).status).toBe(200);
  });

  it('takes a JWT bearer assertion signed with the configured key', async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const other = await generateKeyPair('RS256');
    const jwtOrg = await startSalesforceServer({ jwtPublicKey: publicKey, data: orgData() });
    try {
      const assertion = (key: CryptoKey, iss = jwtOrg.clientId) =>
        new SignJWT({ iss, sub: 'integration@gem.example', aud: 'https://login.salesforce.com' })
          .setProtectedHeader({ alg: 'RS256' })
          .setExpirationTime('3m')
          .sign(key);
      const post = async (jwt: string) => {
        const res = await fetch(jwtOrg.tokenUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
            assertion: jwt,
          }),
        });
        return { status: res.status, body: (await res.json()) as Record<string, string> };
      };
      const ok = await post(await assertion(privateKey));
      expect(ok.status).toBe(200);
      expect(ok.body.instance_url).toBe(jwtOrg.url);
      expect((await post(await assertion(other.privateKey))).body).toEqual({
        error: 'invalid_grant',
        error_description: 'invalid assertion',
      });
      expect((await post(await assertion(privateKey, 'someone-else'))).body.error).toBe('invalid_client_id');
    } finally {
      await jwtOrg.close();
    }
  });
});

describe.runIf(inject('dbKind') === 'pglite')('the Salesforce test server creating records', () => {
  let sf: SalesforceServer;
  const version = '62.0';
  const base = `/services/data/v${version}`;
  const contactIds = Array.from({ length: 6 }, (_, i) => salesforceId(keyPrefixes.Contact, i + 1));
  const memberId = salesforceId(keyPrefixes.CampaignMember, 1);
  type SaveResult = { id?: string; success: boolean; errors: { statusCode: string; message: string }[] };

  beforeAll(async () => {
    sf = await startSalesforceServer({
      data: {
        Campaign: [{ Id: campaignId, Name: 'ESG webinar Q3', NumberOfContacts: 1, NumberOfLeads: 0 }],
        Contact: contactIds.map((Id, i) => ({ Id, LastName: `Nowak ${i + 1}` })),
        CampaignMember: [{ Id: memberId, CampaignId: campaignId, ContactId: contactIds[0], Status: 'Sent' }],
      },
    });
  });
  afterAll(() => sf.close());

  const bearer = async () => {
    const res = await fetch(sf.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: sf.clientId,
        client_secret: sf.clientSecret,
      }).toString(),
    });
    return ((await res.json()) as { access_token: string }).access_token;
  };
  const call = async (
    method: string,
    path: string,
    token: string,
    body?: string,
    type = 'application/json',
  ) => {
    const res = await fetch(new URL(path, sf.url), {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': type }) },
      ...(body === undefined ? {} : { body }),
    });
    const text = await res.text();
    return { status: res.status, type: res.headers.get('content-type'), text };
  };
  const create = async (token: string, records: Record<string, unknown>[], allOrNone = false) => {
    const res = await call(
      'POST',
      `${base}/composite/sobjects`,
      token,
      JSON.stringify({
        allOrNone,
        records: records.map((r) => ({ attributes: { type: 'CampaignMember' }, ...r })),
      }),
    );
    return { status: res.status, body: JSON.parse(res.text) as SaveResult[] & RestError };
  };
  const member = (contactId: string) => ({ CampaignId: campaignId, ContactId: contactId });

  it('creates a collection record by record: DUPLICATE_VALUE for a member, a test’s rule, bad lookups', async () => {
    const token = await bearer();
    sf.rejectRecords([
      {
        object: 'CampaignMember',
        when: (r) => r.ContactId === contactIds[2],
        message: 'This contact opted out of campaigns.',
      },
    ]);
    const { status, body } = await create(token, [
      member(contactIds[1]!),
      member(contactIds[0]!),
      member(contactIds[2]!),
      member(contactIds[3]!.slice(0, 15)),
      { CampaignId: campaignId, ContactId: 'not-an-id' },
      { CampaignId: salesforceId(keyPrefixes.Campaign, 99), ContactId: contactIds[4] },
      { ContactId: contactIds[4] },
    ]);
    expect(status).toBe(200);
    expect(body.map((r) => (r.success ? 'ok' : r.errors[0]!.statusCode))).toEqual([
      'ok',
      'DUPLICATE_VALUE',
      'FIELD_CUSTOM_VALIDATION_EXCEPTION',
      'ok',
      'MALFORMED_ID',
      'INVALID_CROSS_REFERENCE_KEY',
      'REQUIRED_FIELD_MISSING',
    ]);
    expect(body[1]).toEqual({
      success: false,
      errors: [{ statusCode: 'DUPLICATE_VALUE', message: 'Already a campaign member.', fields: [] }],
    });
    expect(body[2]!.errors[0]!.message).toBe('This contact opted out of campaigns.');
    expect(body[0]!.id).toMatch(/^00v[a-z0-9]{15}$/i);
    // What was created is in the org, with the defaults and lookups in their 18-character form.
    const rows = await call(
      'GET',
      `${base}/query?q=${encodeURIComponent(`SELECT Id, ContactId, Status, HasResponded FROM CampaignMember WHERE CampaignId = '${campaignId}' ORDER BY Id`)}`,
      token,
    );
    const found = (JSON.parse(rows.text) as QueryResult).records;
    expect(found.map((r) => r.ContactId)).toEqual([contactIds[0], contactIds[1], contactIds[3]]);
    expect(found[1]).toMatchObject({ Id: body[0]!.id, Status: 'Sent', HasResponded: false });
    expect(sf.records('Campaign')[0]!.NumberOfContacts).toBe(3);
    sf.rejectRecords([]);
  });

  it('takes every record back with allOrNone, and refuses a request that is not one', async () => {
    const token = await bearer();
    const before = sf.records('CampaignMember').length;
    const rolledBack = await create(token, [member(contactIds[5]!), member(contactIds[0]!)], true);
    expect(rolledBack.body.map((r) => r.errors[0]!.statusCode)).toEqual([
      'ALL_OR_NONE_OPERATION_ROLLED_BACK',
      'DUPLICATE_VALUE',
    ]);
    expect(sf.records('CampaignMember')).toHaveLength(before);
    // The member rolled back can be created after all.
    expect((await create(token, [member(contactIds[5]!)])).body[0]!.success).toBe(true);

    const tooMany = await create(
      token,
      Array.from({ length: 201 }, () => member(contactIds[4]!)),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body[0]!.errorCode).toBe('EXCEEDED_ID_LIMIT');
    const unknownField = await create(token, [{ ...member(contactIds[4]!), Goal__c: 'x' }]);
    expect([unknownField.status, unknownField.body[0]!.errorCode]).toEqual([400, 'INVALID_FIELD']);
    const get = await call('GET', `${base}/composite/sobjects`, token);
    expect(get.status).toBe(405);
  });

  it('runs a Bulk API 2.0 ingest job: create, upload, close, poll, results as CSV, delete', async () => {
    const token = await bearer();
    const fresh = Array.from({ length: 3 }, (_, i) => salesforceId(keyPrefixes.Contact, 100 + i));
    sf.setData({
      Campaign: [{ Id: campaignId, Name: 'ESG webinar Q3' }],
      Contact: [...contactIds, ...fresh].map((Id) => ({ Id, LastName: 'Nowak' })),
      CampaignMember: [{ Id: memberId, CampaignId: campaignId, ContactId: contactIds[0] }],
    });
    sf.rejectRecords([
      {
        when: (r) => r.ContactId === fresh[2],
        statusCode: 'CANNOT_INSERT_UPDATE_ACTIVATE_ENTITY',
        message: 'Trigger: no',
      },
    ]);
    const json = <T>(r: { text: string }) => JSON.parse(r.text) as T;
    type Job = {
      id: string;
      state: string;
      numberRecordsProcessed: number;
      numberRecordsFailed: number;
      contentUrl: string;
    };
    const opened = await call(
      'POST',
      `${base}/jobs/ingest`,
      token,
      JSON.stringify({ object: 'CampaignMember', operation: 'insert', contentType: 'CSV', lineEnding: 'LF' }),
    );
    const job = json<Job>(opened);
    expect(opened.status).toBe(200);
    expect(job).toMatchObject({
      state: 'Open',
      contentUrl: `services/data/v${version}/jobs/ingest/${job.id}/batches`,
    });
    expect(job.id).toMatch(/^750/);
    const csv = ['CampaignId,ContactId', ...[contactIds[0], ...fresh].map((c) => `${campaignId},${c}`)].join(
      '\n',
    );
    const upload = await call('PUT', `${base}/jobs/ingest/${job.id}/batches`, token, csv, 'text/csv');
    expect([upload.status, upload.text]).toEqual([201, '']);
    expect((await call('GET', `${base}/jobs/ingest/${job.id}/successfulResults`, token)).status).toBe(409);
    const closed = await call(
      'PATCH',
      `${base}/jobs/ingest/${job.id}`,
      token,
      JSON.stringify({ state: 'UploadComplete' }),
    );
    expect(json<Job>(closed).state).toBe('UploadComplete');
    expect(json<Job>(await call('GET', `${base}/jobs/ingest/${job.id}`, token)).state).toBe('InProgress');
    expect(json<Job>(await call('GET', `${base}/jobs/ingest/${job.id}`, token))).toMatchObject({
      state: 'JobComplete',
      numberRecordsProcessed: 4,
      numberRecordsFailed: 2,
    });
    const successful = await call('GET', `${base}/jobs/ingest/${job.id}/successfulResults`, token);
    expect(successful.type).toMatch(/^text\/csv/);
    const ok = parseCsv(successful.text);
    expect(ok[0]).toEqual(['sf__Id', 'sf__Created', 'CampaignId', 'ContactId']);
    // Not in the upload's order, as Salesforce warns.
    expect(ok.slice(1).map((row) => row[3])).toEqual([fresh[1], fresh[0]]);
    const failed = parseCsv((await call('GET', `${base}/jobs/ingest/${job.id}/failedResults`, token)).text);
    expect(failed).toEqual([
      ['sf__Id', 'sf__Error', 'CampaignId', 'ContactId'],
      ['', 'CANNOT_INSERT_UPDATE_ACTIVATE_ENTITY:Trigger: no:--', campaignId, fresh[2]],
      ['', 'DUPLICATE_VALUE:Already a campaign member.:--', campaignId, contactIds[0]],
    ]);
    const unprocessed = await call('GET', `${base}/jobs/ingest/${job.id}/unprocessedrecords`, token);
    expect(parseCsv(unprocessed.text)).toEqual([['CampaignId', 'ContactId']]);
    expect(sf.records('CampaignMember').map((m) => m.ContactId)).toEqual([contactIds[0], fresh[0], fresh[1]]);
    expect((await call('DELETE', `${base}/jobs/ingest/${job.id}`, token)).status).toBe(204);
    expect((await call('GET', `${base}/jobs/ingest/${job.id}`, token)).status).toBe(404);

    // A header naming a field the object does not have fails the job.
    const bad = json<Job>(
      await call(
        'POST',
        `${base}/jobs/ingest`,
        token,
        JSON.stringify({ object: 'CampaignMember', operation: 'insert' }),
      ),
    );
    await call(
      'PUT',
      `${base}/jobs/ingest/${bad.id}/batches`,
      token,
      'CampaignId,Goal__c\nx,y\n',
      'text/csv',
    );
    await call('PATCH', `${base}/jobs/ingest/${bad.id}`, token, JSON.stringify({ state: 'UploadComplete' }));
    await call('GET', `${base}/jobs/ingest/${bad.id}`, token);
    expect(json(await call('GET', `${base}/jobs/ingest/${bad.id}`, token))).toMatchObject({
      state: 'Failed',
      errorMessage: 'InvalidBatch : Field name not found : Goal__c',
    });
    sf.reset();
  });
});
