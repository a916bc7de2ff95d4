/** People: operators and members (operators only). */
import { html } from '../../hosted/html.js';
import { consolePage } from '../layout.js';
import { page, type ConsoleRouter } from '../router.js';
import type { ConsoleServices } from '../services.js';

export function registerPeoplePages(router: ConsoleRouter, services: ConsoleServices): void {
  services.navigation.register({ id: 'people', label: 'People', path: '/console/people', operatorsOnly: true });
  router.get('/people', { section: 'people', operatorsOnly: true }, async ({ viewer }) =>
    page(consolePage({ title: 'People', section: 'people', viewer, navigation: services.navigation, body: html`<p>…</p>` })),
  );
}
