/**
 * `GET /api/v1/capabilities/providers` and the providers' logo images. The list is computed from the
 * in-memory catalogue; each distinct answer is built once and served with an ETag (decisions §1).
 */
import { createHash } from 'node:crypto';
import { Type, type Static } from 'typebox';
import { callerOf, type Authenticator } from '../auth/authenticate.js';
import { ErrorResponses, jsonResponse } from '../http/error-schemas.js';
import type { App } from '../http/fastify-types.js';
import { COUNTRY_CODES } from '../domain/reference-data.js';
import {
  REQUIRED_PAYMENT_FIELDS,
  type Bank,
  type BankGroup,
  type CatalogueEntry,
  type Environment,
  type CatalogueView,
} from './catalogue.js';
import { iconSvg, logoSvg } from './logos.js';

const providerFields = {
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  countryCode: Type.String(),
  logoUrl: Type.String({ format: 'uri' }),
  iconUrl: Type.String({ format: 'uri' }),
  paymentSchemes: Type.Array(Type.Enum(['SEPA', 'DOMESTIC'] as const)),
  requiredPaymentFields: Type.Array(Type.Enum(REQUIRED_PAYMENT_FIELDS)),
};
const SubsidiarySchema = Type.Object(providerFields, { title: 'ProviderSubsidiary' });
export const ProviderSchema = Type.Object(
  {
    ...providerFields,
    subsidiaries: Type.Optional(
      Type.Array(SubsidiarySchema, { description: 'Present on the parent of a bank group: send a subsidiary id, never the parent id' }),
    ),
  },
  { title: 'Provider' },
);
const ProviderListSchema = Type.Array(ProviderSchema, {
  title: 'ProviderList',
  examples: [
    [
      {
        id: '6d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09',
        name: 'Rheinland Sandbox Bank',
        countryCode: 'DE',
        logoUrl: 'http://localhost:8080/assets/providers/6d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09/logo.svg',
        iconUrl: 'http://localhost:8080/assets/providers/6d3c2b1a-0f9e-4d8c-b7a6-5e4d3c2b1a09/icon.svg',
        paymentSchemes: ['SEPA'],
        requiredPaymentFields: [],
      },
    ],
  ],
});

/** What the list's answers carry for caches, 200 and 304 alike (docs/api-decisions.md, "Providers"). */
const CACHE_HEADERS = {
  ETag: {
    type: 'string',
    description: 'The version of this list; send it back in `If-None-Match`',
    examples: ['"q1w2e3r4t5y6u7i8o9p0a1s2d3f"'],
  },
  'Cache-Control': { type: 'string', description: 'Cache privately for an hour', examples: ['private, max-age=3600'] },
  Vary: { type: 'string', description: 'The list depends on the caller', examples: ['Authorization'] },
} as const;
type ProviderView = Static<typeof ProviderSchema>;

/** 304 has no content (RFC 9110 §15.4.5): `type: 'null'` documents none, and the handler sends no payload at all. */
const NotModified = Type.Unsafe<undefined>({
  type: 'null',
  description: 'Not modified (`If-None-Match` matched the `ETag`): no content; ETag, Cache-Control and Vary as on 200',
  headers: CACHE_HEADERS,
});

const ProvidersQuery = Type.Object(
  {
    countryCode: Type.Optional(Type.Enum(COUNTRY_CODES, { description: 'Only banks of this country' })),
    paymentScheme: Type.Optional(Type.Enum(['SEPA', 'DOMESTIC'] as const, { description: 'Only banks offering this scheme' })),
  },
  { additionalProperties: false },
);

export function logoUrlOf(baseUrl: string, id: string): string {
  return `${baseUrl}/assets/providers/${id}/logo.svg`;
}
export function iconUrlOf(baseUrl: string, id: string): string {
  return `${baseUrl}/assets/providers/${id}/icon.svg`;
}

function view(baseUrl: string, provider: Bank | BankGroup) {
  return {
    id: provider.id,
    name: provider.name,
    countryCode: provider.countryCode,
    logoUrl: logoUrlOf(baseUrl, provider.id),
    iconUrl: iconUrlOf(baseUrl, provider.id),
    paymentSchemes: [...provider.paymentSchemes],
    requiredPaymentFields: [...provider.requiredPaymentFields],
  };
}

/** The providers list of one environment, filtered; a group is kept when any of its subsidiaries matches. */
export function providerList(
  catalogue: CatalogueView,
  baseUrl: string,
  environment: Environment,
  filter: { countryCode?: string | undefined; paymentScheme?: 'SEPA' | 'DOMESTIC' | undefined },
): ProviderView[] {
  const matches = (bank: Bank | BankGroup): boolean =>
    (filter.countryCode === undefined || bank.countryCode === filter.countryCode) &&
    (filter.paymentScheme === undefined || bank.paymentSchemes.includes(filter.paymentScheme));
  return catalogue.list(environment).flatMap((entry: CatalogueEntry): ProviderView[] => {
    if (entry.kind === 'bank') return matches(entry) ? [view(baseUrl, entry)] : [];
    const subsidiaries = entry.subsidiaries.filter(matches);
    return subsidiaries.length === 0 ? [] : [{ ...view(baseUrl, entry), subsidiaries: subsidiaries.map((bank) => view(baseUrl, bank)) }];
  });
}

export function registerProviderRoutes(app: App, options: { auth: Authenticator; catalogue: CatalogueView; baseUrl: string }): void {
  const { auth, catalogue, baseUrl } = options;
  // Each answer is kept with the catalogue list it was made from: a bank added, changed or retired gives a new
  // snapshot (bank-registry.ts), and so a new list, and the answer is made again.
  const answers = new Map<string, { providers: ProviderView[]; etag: string; from: readonly CatalogueEntry[] }>();

  app.get(
    '/api/v1/capabilities/providers',
    {
      onRequest: auth.require('providers:read'),
      schema: {
        operationId: 'listProviders',
        tags: ['Providers'],
        summary: 'List providers (banks)',
        description:
          "Banks available in the caller's environment. Fetch at run time or cache briefly (about an hour); do not hard-code provider ids. Requires scope `providers:read`.",
        security: [{ bearerAuth: [] }],
        querystring: ProvidersQuery,
        headers: Type.Object({
          'if-none-match': Type.Optional(
            Type.String({
              description: 'The `ETag` of a list you hold: an unchanged list answers 304 with no content',
              examples: ['"q1w2e3r4t5y6u7i8o9p0a1s2d3f"'],
            }),
          ),
        }),
        response: {
          200: jsonResponse("The banks of the caller's environment", ProviderListSchema, CACHE_HEADERS),
          304: NotModified,
          ...ErrorResponses(400, 401, 403, 429, 500),
        },
      },
    },
    async (request, reply) => {
      const { environment } = callerOf(request);
      const key = `${environment}|${request.query.countryCode ?? ''}|${request.query.paymentScheme ?? ''}`;
      const from = catalogue.list(environment);
      let answer = answers.get(key);
      if (answer === undefined || answer.from !== from) {
        const providers = providerList(catalogue, baseUrl, environment, request.query);
        const digest = createHash('sha256').update(JSON.stringify(providers)).digest('base64url').slice(0, 27);
        answer = { providers, etag: `"${digest}"`, from };
        answers.set(key, answer);
      }
      reply.header('etag', answer.etag).header('cache-control', 'private, max-age=3600').header('vary', 'Authorization');
      const ifNoneMatch = request.headers['if-none-match'];
      if (ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === answer.etag)) {
        // No content at all (RFC 9110 §15.4.5): sending `null` would serialise it as a 4-byte JSON body.
        return reply.code(304).send();
      }
      return reply.send(answer.providers);
    },
  );

  // Logos are public images, like any bank logo on a web page: no token, long cache.
  app.get(
    '/assets/providers/:providerId/:image',
    {
      schema: {
        hide: true,
        params: Type.Object({ providerId: Type.String({ format: 'uuid' }), image: Type.Enum(['logo.svg', 'icon.svg'] as const) }),
      },
    },
    async (request, reply) => {
      const { providerId, image } = request.params;
      const found = catalogue.findInAnyEnvironment(providerId);
      const provider = found.kind === 'bank' ? found.bank : found.kind === 'group' ? found.group : undefined;
      if (provider === undefined) return reply.code(404).send({ title: 'Not Found', statusCode: 404, message: 'Unknown provider' });
      return reply
        .type('image/svg+xml')
        .header('cache-control', 'public, max-age=86400')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        .send(image === 'logo.svg' ? logoSvg(provider) : iconSvg(provider));
    },
  );
}
