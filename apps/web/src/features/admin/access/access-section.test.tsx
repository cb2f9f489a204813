import { adminPaths } from '@gem/contracts/admin-paths';
import type { AccessEntry, AccessListResponse, AccessRequestsResponse } from '@gem/contracts/admin-access';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { createQueryClient } from '@/lib/query-client';
import { json, serveApi } from '@/testing/api-server';

import { AccessSection } from './access-section';

const api = serveApi();

const ADMIN = {
  userId: '0b0c8f0e-7f43-4a7e-9d38-5b0c2b6a1a01',
  email: 'admin@example.com',
  name: 'Demo Admin',
};
const MARKETER = {
  userId: '0b0c8f0e-7f43-4a7e-9d38-5b0c2b6a1a02',
  email: 'marketer@example.com',
  name: 'Demo Marketer',
};
const OUTSIDER = {
  userId: '0b0c8f0e-7f43-4a7e-9d38-5b0c2b6a1a03',
  email: 'outsider@example.com',
  name: 'Demo Outsider',
};

const entry = (user: typeof ADMIN, extra: Partial<AccessEntry>): AccessEntry => ({
  user,
  hasAccess: false,
  rule: 'none',
  grant: null,
  revocation: null,
  lastSeenAt: null,
  pendingRequestId: null,
  ...extra,
});

function serveLists() {
  const list: AccessListResponse = {
    total: 3,
    entries: [
      entry(ADMIN, { hasAccess: true, rule: 'admin', lastSeenAt: '2026-11-20T09:00:00.000Z' }),
      entry(MARKETER, {
        hasAccess: true,
        rule: 'list',
        grant: { grantedAt: '2026-11-01T09:00:00.000Z', grantedBy: ADMIN, reason: 'Joins the team' },
      }),
      entry(OUTSIDER, { pendingRequestId: '7d1c1d2e-8a53-4c4f-9a55-0d6f5f0b8a10' }),
    ],
  };
  const requests: AccessRequestsResponse = {
    pending: [
      {
        id: '7d1c1d2e-8a53-4c4f-9a55-0d6f5f0b8a10',
        user: OUTSIDER,
        note: 'Spring campaign',
        status: 'pending',
        createdAt: '2026-11-20T10:00:00.000Z',
        decidedAt: null,
        decidedBy: null,
        decisionReason: null,
      },
    ],
    decided: [],
  };
  api.on('GET', adminPaths.access, (_req, _body, res) => json(res, 200, list));
  api.on('GET', adminPaths.accessRequests, (_req, _body, res) => json(res, 200, requests));
}

function renderSection() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <AccessSection />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

describe('the access section', () => {
  it('lists people by rule with who granted it and why, filters them, and offers Revoke only where it can work', async () => {
    serveLists();
    const user = renderSection();
    const marketer = await screen.findByRole('listitem', { name: 'Demo Marketer' });
    expect(marketer).toHaveTextContent('Access list');
    expect(marketer).toHaveTextContent(/Granted by Demo Admin on Nov 1, 2026: “Joins the team”/);
    expect(
      within(marketer).getByRole('button', { name: 'Revoke the access of Demo Marketer' }),
    ).toBeVisible();
    const admin = screen.getByRole('listitem', { name: 'Demo Admin' });
    expect(within(admin).queryByRole('button')).toBeNull();
    expect(screen.getByRole('listitem', { name: 'Demo Outsider' })).toHaveTextContent('Request pending');

    await user.selectOptions(screen.getByLabelText('Gets in by'), 'Administrator');
    expect(screen.queryByRole('listitem', { name: 'Demo Marketer' })).toBeNull();
    expect(screen.getByText('1 of 3 people')).toBeVisible();
  });

  it('revokes with a reason in a confirm dialog, showing the server’s words when it refuses', async () => {
    serveLists();
    const sent: unknown[] = [];
    api.on('POST', adminPaths.accessRevocations, (_req, body, res) => {
      sent.push(JSON.parse(body));
      json(res, 400, {
        error: {
          code: 'validation_failed',
          message: 'Some fields are not valid.',
          issues: [{ path: 'body.reason', message: 'Give a reason.' }],
        },
      });
    });
    const user = renderSection();
    await user.click(await screen.findByRole('button', { name: 'Revoke the access of Demo Marketer' }));
    const dialog = screen.getByRole('dialog', { name: 'Revoke the access of Demo Marketer?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke access' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Give a reason.');
    expect(sent).toEqual([{ userId: MARKETER.userId, reason: '' }]);
  });

  it('approves a pending request with the reason typed beside it', async () => {
    serveLists();
    const sent: unknown[] = [];
    api.on(
      'POST',
      adminPaths.accessRequestDecision.replace(':requestId', '7d1c1d2e-8a53-4c4f-9a55-0d6f5f0b8a10'),
      (_req, body, res) => {
        sent.push(JSON.parse(body));
        json(res, 200, { request: {} });
      },
    );
    const user = renderSection();
    const request = await screen.findByRole('listitem', { name: 'Request of Demo Outsider' });
    expect(request).toHaveTextContent('Spring campaign');
    await user.type(within(request).getByLabelText('Reason (optional)'), 'Spring team');
    await user.click(within(request).getByRole('button', { name: 'Approve Demo Outsider' }));
    await expect.poll(() => sent).toEqual([{ decision: 'approve', reason: 'Spring team' }]);
  });
});
