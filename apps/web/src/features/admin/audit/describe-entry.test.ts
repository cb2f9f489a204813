import { auditActionNames } from '@gem/contracts/admin-audit';
import { describe, expect, it } from 'vitest';

import { actionLabel, actorOf, describeDetails } from './describe-entry';

describe('an audit entry in words', () => {
  it('names every action the log records', () => {
    for (const action of auditActionNames) expect(actionLabel(action)).not.toBe(action);
    expect(actionLabel('something.new')).toBe('something.new');
  });

  it('says why a sign-in failed, and what changed', () => {
    expect(describeDetails({ action: 'sign-in.failed', details: { reason: 'unknown-account' } })).toBe(
      'No account has this e-mail.',
    );
    expect(describeDetails({ action: 'sign-in.failed', details: { reason: 'wrong-password' } })).toBe(
      'Wrong password.',
    );
    expect(describeDetails({ action: 'access.changed', details: { hasAccess: true, rule: 'domain' } })).toBe(
      'Now let in by their e-mail domain.',
    );
    expect(describeDetails({ action: 'allowance.user-set', details: { from: null, to: 250000 } })).toBe(
      'From no limit to 250,000 tokens a month.',
    );
    expect(describeDetails({ action: 'audit.retention-set', details: { from: 365, to: 30 } })).toBe(
      'From 365 to 30 days.',
    );
    expect(
      describeDetails({ action: 'access.revoked', details: { before: 'list', reason: 'Left the team' } }),
    ).toBe('Before: by the access list. Reason: “Left the team”.');
  });

  it('lists the fields of an entry it does not know, so nothing recorded is hidden', () => {
    expect(describeDetails({ action: 'x.y', details: { a: 'b', n: 2 } })).toBe('a: b; n: 2');
  });

  it('names who did it: a person, the command line, or GEM itself', () => {
    const entry = { actorEmail: null, actorUserId: null, details: {} };
    expect(actorOf({ ...entry, actorEmail: 'admin@example.com' })).toBe('admin@example.com');
    expect(actorOf({ ...entry, actorUserId: 'u1' })).toBe('a user no longer known');
    expect(actorOf({ ...entry, details: { via: 'command-line' } })).toBe('the command line');
    expect(actorOf(entry)).toBe('GEM');
  });
});
