/** The API document (OpenAPI, collected from the routes' schemas) and Swagger UI at `/docs`. */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { openApiDocumentation } from './openapi.js';
import { rootPlugin } from './root-plugin.js';

/** Registered before any route: the document collects every route registered after it, in any scope. */
export const apiDocumentation = rootPlugin('api-documentation', async (app) => {
  await app.register(swagger, openApiDocumentation());
  // Swagger UI from our own assets: the page needs no network beyond the service (no outside fonts, scripts or
  // validator badge), and the package installs on Node 20.
  // The page opens with the project's name (the document's title); Swagger UI's top bar, with the framework's logo
  // and an "Explore" box for loading other documents, is left out (BaseLayout; the logo only ever replaced the bar's).
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { url: '/openapi.json', validatorUrl: null, deepLinking: true, tryItOutEnabled: false, layout: 'BaseLayout' },
    theme: { title: 'openpis API' },
    staticCSP: true,
    logLevel: 'warn',
  });
});
