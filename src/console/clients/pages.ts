/** Clients: the list and a client's page (operators manage; a member sees their own client, read-only). */
import { html } from '../../hosted/html.js';
import { consolePage } from '../layout.js';
import { page, type ConsoleRouter } from '../router.js';
import type { ConsoleServices } from '../services.js';

export function registerClientPages(router: ConsoleRouter, services: ConsoleServices): void {
  services.navigation.register({ id: 'clients', label: 'Clients', path: '/console/clients', operatorsOnly: false });
  router.get('/clients', { section: 'clients' }, async ({ viewer }) =>
    page(consolePage({ title: 'Clients', section: 'clients', viewer, navigation: services.navigation, body: html`<p>…</p>` })),
  );
}
