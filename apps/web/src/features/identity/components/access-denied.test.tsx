import { adminPaths } from '@gem/contracts/admin-paths';
import type { OwnAccessRequestResponse } from '@gem/contracts/admin-access';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';

import { AuthContext } from '@/lib/auth/auth-provider';
import { createQueryClient } from '@/lib/query-client';
import { json, serveApi } from '@/testing/api-server';
import { authState } from '@/testing/render-route';

import { AccessDenied } from './access-denied';

const api = serveApi();

function renderDenied() {
  const router = createMemoryRouter([{ path: '/', element: <AccessDenied contacts={['a@example.com']} /> }]);
  render(
    <QueryClientProvider client={createQueryClient()}>
      <AuthContext.Provider value={authState(true)}>
        <RouterProvider router={router} />
      </AuthContext.Provider>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

const pending = {
  id: '6f1c1d2e-8a53-4c4f-9a55-0d6f5f0b8a10',
  note: 'I run the spring campaign',
  status: 'pending',
  createdAt: '2026-11-20T09:00:00.000Z',
  decidedAt: null,
  decisionReason: null,
} as const;

describe('the Access Denied page', () => {
  it('asks for access with a note, then shows the request as pending', async () => {
    const sent: unknown[] = [];
    api.on('GET', adminPaths.accessRequest, (_req, _body, res) =>
      json(res, 200, { request: null, hasAccess: false } satisfies OwnAccessRequestResponse),
    );
    api.on('POST', adminPaths.accessRequest, (_req, body, res) => {
      sent.push(JSON.parse(body));
      json(res, 201, { request: pending, hasAccess: false } satisfies OwnAccessRequestResponse);
    });
    const user = renderDenied();
    await user.click(await screen.findByRole('button', { name: 'Request access' }));
    await user.type(
      screen.getByRole('textbox', { name: 'Note to the administrators (optional)' }),
      '  I run the spring campaign ',
    );
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText(/Your request is pending since/)).toBeVisible();
    expect(screen.getByText('I run the spring campaign')).toBeVisible();
    expect(sent).toEqual([{ note: 'I run the spring campaign' }]);
    expect(screen.queryByRole('button', { name: 'Request access' })).toBeNull();
  });

  it('shows a declined request with its reason, and lets the user ask again', async () => {
    api.on('GET', adminPaths.accessRequest, (_req, _body, res) =>
      json(res, 200, {
        request: {
          ...pending,
          status: 'declined',
          decidedAt: '2026-11-21T10:30:00.000Z',
          decisionReason: 'Not in marketing',
        },
        hasAccess: false,
      } satisfies OwnAccessRequestResponse),
    );
    api.on('POST', adminPaths.accessRequest, (_req, _body, res) =>
      json(res, 400, {
        error: {
          code: 'validation_failed',
          message: 'Some fields are not valid.',
          issues: [{ path: 'body.note', message: 'The note can be at most 1,000 characters.' }],
        },
      }),
    );
    const user = renderDenied();
    const declined = await screen.findByRole('status');
    expect(declined).toHaveTextContent('Your request was declined');
    expect(declined).toHaveTextContent('Not in marketing');
    await user.click(screen.getByRole('button', { name: 'Ask again' }));
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The note can be at most 1,000 characters.');
  });
});
