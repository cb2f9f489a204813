/**
 * Administration's API paths (issue 30) without zod, so the browser's first chunk can use them.
 * Every `/api/admin/*` route is for administrators only (GEM_ADMIN_EMAILS, GEM_ADMIN_ROLES),
 * checked on the server; `accessRequest` is the requester's own, for a signed-in user whom GEM
 * does not let in yet, and `allowance` is every user's own.
 */
export const adminPaths = {
  /** GET: everyone GEM knows, with how they get in (the access list). */
  access: '/api/admin/access',
  /** POST { userId | email, reason }: grants access. */
  accessGrants: '/api/admin/access/grants',
  /** POST { userId, reason }: revokes access. */
  accessRevocations: '/api/admin/access/revocations',
  /** GET ?status=: access requests, pending first. */
  accessRequests: '/api/admin/access-requests',
  /** POST { decision: 'approve' | 'decline', reason? }. */
  accessRequestDecision: '/api/admin/access-requests/:requestId/decision',
  /** GET ?from&to&by&userId&tool: the usage figures, charts and table. */
  usage: '/api/admin/usage',
  /** GET, same query: the usage table as CSV. */
  usageCsv: '/api/admin/usage.csv',
  /** GET, same query: the brand voice's findings per period and tool (style_daily). */
  usageStyle: '/api/admin/usage/style',
  /** GET, same query and a cursor: the generation records a figure is made of. */
  usageGenerations: '/api/admin/usage/generations',
  /** GET: the models' prices; PUT { model, inputPer1k, outputPer1k }. */
  prices: '/api/admin/prices',
  /** DELETE: a model's price. */
  price: '/api/admin/prices/:model',
  /** GET: the default allowance, the overrides and who is near their limit. */
  allowances: '/api/admin/allowances',
  /** PUT { monthlyTokens: number | null }. */
  allowanceDefault: '/api/admin/allowances/default',
  /** PUT { monthlyTokens: number | null } (null: back to the default). */
  allowanceUser: '/api/admin/allowances/users/:userId',
  /** GET ?q&action&from&to&before: the audit log, newest first. */
  audit: '/api/admin/audit',
  /** PUT { days }: how long the audit log keeps entries. */
  auditRetention: '/api/admin/audit/retention',
  /** GET: the health of each integration. */
  integrations: '/api/admin/integrations',
  /** GET: the signed-in user's latest access request; POST { note? }: asks for access. */
  accessRequest: '/api/identity/access-request',
  /** GET: the signed-in user's monthly AI allowance and what is left of it. */
  allowance: '/api/ai/allowance',
} as const;
