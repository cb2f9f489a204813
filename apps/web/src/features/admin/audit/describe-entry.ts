import { auditActionLabels, type AuditActionName, type AuditEntry } from '@gem/contracts/admin-audit';

import { formatInteger } from '@/lib/format-number';

/**
 * An audit entry in words for the page: what happened and its details as a sentence, from the
 * details each action records (lib/audit.ts's writers). An entry of an unknown shape lists its
 * fields as they are, so nothing recorded is hidden.
 */

const ruleWords: Record<string, string> = {
  admin: 'as an administrator',
  list: 'by the access list',
  domain: 'by their e-mail domain',
  role: 'by a role',
  revoked: 'revoked',
  none: 'no access',
};

const reasonWords: Record<string, string> = {
  'wrong-password': 'Wrong password.',
  'unknown-account': 'No account has this e-mail.',
  throttled: 'Refused: too many failed attempts, the account or address was held back.',
};

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

const tokens = (v: unknown) => {
  const n = num(v);
  return n === null ? 'no limit' : `${formatInteger(n)} tokens a month`;
};

const price = (v: unknown) => {
  if (!v || typeof v !== 'object') return 'none';
  const p = v as { inputPer1k?: unknown; outputPer1k?: unknown };
  return `${String(p.inputPer1k)} in, ${String(p.outputPer1k)} out per 1,000 tokens`;
};

const withReason = (text: string, reason: unknown) => {
  const why = str(reason);
  return why ? `${text} Reason: “${why}”.` : text;
};

/** What the action is called. */
export function actionLabel(action: string): string {
  return auditActionLabels[action as AuditActionName] ?? action;
}

/** The entry's details as a sentence (empty when it has none). */
export function describeDetails(entry: Pick<AuditEntry, 'action' | 'details'>): string {
  const d = entry.details;
  switch (entry.action) {
    case 'sign-in.succeeded':
      return '';
    case 'sign-in.failed':
      return reasonWords[String(d.reason)] ?? '';
    case 'access.changed':
      return d.hasAccess
        ? `Now let in ${ruleWords[String(d.rule)] ?? 'by a rule'}.`
        : 'Now refused: no rule lets them in.';
    case 'access.granted':
    case 'access.revoked':
      return withReason(
        d.before ? `Before: ${ruleWords[String(d.before)] ?? String(d.before)}.` : '',
        d.reason,
      );
    case 'access.requested': {
      const note = str(d.note);
      return `${d.again ? 'Asked again.' : 'Asked for access.'}${note ? ` Note: “${note}”.` : ''}`;
    }
    case 'access.request-approved':
    case 'access.request-declined':
      return withReason('', d.reason).trim();
    case 'allowance.default-set':
    case 'allowance.user-set':
      return `From ${tokens(d.from)} to ${tokens(d.to)}.`;
    case 'price.set':
      return `${String(d.inputPer1k)} in, ${String(d.outputPer1k)} out per 1,000 tokens (before: ${price(d.before)}).`;
    case 'price.removed':
      return `Was ${price(d.before)}.`;
    case 'audit.retention-set':
      return `From ${String(d.from)} to ${String(d.to)} days.`;
    case 'audit.purged':
      return `${formatInteger(num(d.count) ?? 0)} entries older than ${String(d.retentionDays)} days removed.`;
    case 'brand-voice.saved': {
      const note = str(d.note);
      const counts = (d.counts ?? {}) as Record<string, unknown>;
      const from = num(d.basedOn);
      return `Version ${String(d.version)}${from === null ? '' : `, from version ${from}`}: ${formatInteger(num(counts.banned) ?? 0)} banned terms, ${formatInteger(num(counts.preferred) ?? 0)} preferred, ${formatInteger(num(counts.names) ?? 0)} names.${note ? ` Note: “${note}”.` : ''}`;
    }
    default:
      return Object.entries(d)
        .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
        .join('; ');
  }
}

/** Who did it: their e-mail; the command-line tool (gem access …); GEM itself (the scheduler). */
export function actorOf(entry: Pick<AuditEntry, 'actorEmail' | 'actorUserId' | 'details'>): string {
  if (entry.actorEmail) return entry.actorEmail;
  if (entry.actorUserId) return 'a user no longer known';
  return entry.details['via'] === 'command-line' ? 'the command line' : 'GEM';
}
