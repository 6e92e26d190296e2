'use client';

import Link from 'next/link';
import { useState } from 'react';
import {
  CreateRouteDialog,
  DeleteRouteDialog,
  EditRouteDialog,
  RouteSecretDialog,
} from '@/components/dialogs/route-dialogs';
import { mayOpen } from '@/components/layout/sections';
import { RouteTable } from '@/components/tables/route-table';
import { Button } from '@/components/ui/button';
import { Alert, EmptyState, PageHeader } from '@/components/ui/feedback';
import { ApiError } from '@/lib/client/api';
import { useCurrentUser, useDomains } from '@/lib/client/queries';
import { useRoutes, useUpdateRoute } from '@/lib/client/route-queries';
import type { RouteObject } from '@/lib/client/types';

/** What the role may do with routes: read, write (create, edit, enable, test, send again) and delete. */
export function useRoutePermissions(accountId: string) {
  const me = useCurrentUser();
  const scopes = me.data?.accounts.find((account) => account.id === accountId)?.scopes ?? [];
  return {
    canWrite: mayOpen(scopes, 'routes:write'),
    canDelete: mayOpen(scopes, 'routes:delete'),
    canListDomains: mayOpen(scopes, 'domains:read'),
    isLoaded: Boolean(me.data),
  };
}

/** The account's domain names for the route form's suggestions; null when this role cannot list them. */
export function useRouteDomainNames(accountId: string, can: ReturnType<typeof useRoutePermissions>) {
  const domains = useDomains(accountId, { enabled: can.isLoaded && can.canListDomains && can.canWrite });
  return can.canListDomains ? (domains.data?.data.map((domain) => domain.domain) ?? []) : null;
}

export function RoutesView({ accountId }: { accountId: string }) {
  const routes = useRoutes(accountId);
  const can = useRoutePermissions(accountId);
  const domainNames = useRouteDomainNames(accountId, can);
  const toggle = useUpdateRoute(accountId);
  const [isCreating, setIsCreating] = useState(false);
  const [created, setCreated] = useState<{ route: RouteObject; secret: string } | null>(null);
  const [editing, setEditing] = useState<RouteObject | null>(null);
  const [deleting, setDeleting] = useState<RouteObject | null>(null);
  const [notice, setNotice] = useState<{ text: string; routeId?: string } | null>(null);

  const createButton = can.canWrite ? <Button onClick={() => setIsCreating(true)}>Create route</Button> : null;
  const list = routes.data?.data ?? [];
  const autoDisabled = list.filter((route) => !route.enabled && route.disabled_reason);
  const setEnabled = (route: RouteObject) => {
    setNotice(null);
    toggle.mutate(
      { id: route.id, enabled: !route.enabled },
      { onSuccess: (saved) => setNotice({ text: `Route “${saved.name}” ${saved.enabled ? 'enabled' : 'disabled'}.` }) },
    );
  };

  return (
    <>
      <PageHeader
        title="Routes"
        description="Mail that arrives for your domains is POSTed to your endpoints as JSON (message.routing), signed with each route's secret, and retried when the endpoint fails."
        actions={list.length > 0 ? createButton : null}
      />
      <div className="space-y-4">
        {notice ? (
          <div data-testid="routes-notice">
            <Alert tone="success">
              {notice.text}{' '}
              {notice.routeId ? (
                <Link href={`/${accountId}/routes/${notice.routeId}`} className="font-medium underline">
                  Open the route
                </Link>
              ) : null}
            </Alert>
          </div>
        ) : null}
        {toggle.error ? (
          <Alert tone="error" title="Could not change the route">
            {toggle.error.message}
          </Alert>
        ) : null}
        {autoDisabled.length > 0 ? (
          <Alert
            tone="warning"
            title={`${autoDisabled.length === 1 ? 'A route was' : `${autoDisabled.length} routes were`} turned off after failing again and again`}
          >
            Mailstead stops sending to an endpoint that keeps failing. Fix the endpoint, then enable the route again.
          </Alert>
        ) : null}
        <RouteTable
          accountId={accountId}
          routes={routes.data?.data}
          state={{
            isLoading: routes.isPending,
            loadingLabel: 'Loading routes…',
            error: routes.error ? (
              routes.error instanceof ApiError && routes.error.status === 403 ? (
                <Alert tone="warning" title="You cannot view routes">
                  {routes.error.message}. Your role in this account does not include the <code>routes:read</code> scope.
                </Alert>
              ) : (
                <Alert tone="error" title="Routes could not be loaded">
                  {routes.error.message}
                </Alert>
              )
            ) : null,
            empty: (
              <EmptyState title="No routes yet" action={createButton}>
                <p>
                  A route receives mail for your domains: each message to an address it matches (<code>support@</code>,{' '}
                  <code>ticket-*@</code>, or every address) is POSTed to your endpoint, with its text, HTML and
                  attachments.
                </p>
                <p className="mt-2">
                  The domain must be verified and have an MX record pointing at this server&apos;s mail hostname; each
                  domain&apos;s page shows the record under <strong>Inbound</strong>.
                </p>
              </EmptyState>
            ),
          }}
          canEdit={can.canWrite}
          canDelete={can.canDelete}
          onToggle={setEnabled}
          onEdit={setEditing}
          onDelete={setDeleting}
        />
      </div>

      <CreateRouteDialog
        accountId={accountId}
        isOpen={isCreating}
        domains={domainNames}
        onClose={() => setIsCreating(false)}
        onCreated={(route, secret) => {
          setIsCreating(false);
          setCreated({ route, secret });
          setNotice({ text: `Route “${route.name}” created.`, routeId: route.id });
        }}
      />
      <RouteSecretDialog
        secret={created?.secret ?? null}
        name={created?.route.name ?? ''}
        onClose={() => setCreated(null)}
      />
      <EditRouteDialog
        accountId={accountId}
        route={editing}
        domains={domainNames}
        onClose={() => setEditing(null)}
        onSaved={(route) => setNotice({ text: `Route “${route.name}” saved.`, routeId: route.id })}
      />
      <DeleteRouteDialog
        accountId={accountId}
        route={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={(name) => setNotice({ text: `Route “${name}” deleted.` })}
      />
    </>
  );
}
