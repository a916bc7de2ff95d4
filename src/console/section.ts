/**
 * A console section (docs/console.md, "Adding a page"): a folder under src/console/ with `queries.ts` (what it reads
 * and writes), `views.ts` (its HTML) and `routes.ts`, which exports one of these. The console plugin registers each
 * section's routes in a scope of its own inside the signed-in pages (src/console/plugin.ts), so a section's
 * operators-only scope (`admitOperatorsOnly`) stays its own.
 */
import type { App } from '../http/fastify-types.js';
import type { ConsoleSection } from './navigation.js';
import type { ConsoleServices } from './services.js';

export interface ConsoleSectionRoutes {
  /** Its entry in the navigation; the not-found page of its routes marks it. */
  readonly navigation?: ConsoleSection;
  /** Its pages and forms, for signed-in people (paths under /console). */
  readonly routes: (pages: App, services: ConsoleServices) => Promise<void>;
  /** Its multipart forms (file uploads), for operators: the only scope that reads multipart bodies. */
  readonly uploads?: (uploads: App, services: ConsoleServices) => Promise<void>;
}
