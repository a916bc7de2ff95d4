/** Settings of the generated OpenAPI 3.1 document (served at /openapi.json, committed as openapi.json). */
import type { SwaggerOptions } from '@fastify/swagger';

export function openApiDocumentation(baseUrl: string): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'openpis: payment initiation API',
        version: '1.0.0',
        description:
          'Open-banking payment initiation: create a payment, send the payer to `redirectUrl`, then follow the status by the status endpoints or webhooks. A redirect back to you never proves success: check the final status.',
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      servers: [{ url: baseUrl }],
      tags: [
        { name: 'Authentication', description: 'OAuth 2.0 client credentials' },
        { name: 'Payments' },
        { name: 'Payment statuses' },
        { name: 'Providers', description: 'Banks available to the caller' },
      ],
      components: {
        securitySchemes: {
          basicAuth: { type: 'http', scheme: 'basic', description: 'clientId:clientSecret (token endpoint only)' },
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'Access token from POST /api/v1/auth/token' },
        },
      },
    },
  };
}
