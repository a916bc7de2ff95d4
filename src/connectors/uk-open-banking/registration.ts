/**
 * UK Open Banking Dynamic Client Registration (DCR 3.3/3.4, RFC 7591/7592) from our side: the signed registration
 * request built with jose from our identity (the signing key and its Directory `kid`, the software statement
 * assertion, the transport certificate's subject for `tls_client_auth`), sent to the bank's `registration_endpoint`
 * over mutual TLS; and reading, updating and deleting the registration with its access token. `openpis banks
 * register` drives it (docs/going-live.md); what it answers is kept through a {@link BankRegistrationStore}.
 */
import { randomUUID } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { decodeJwt, SignJWT } from 'jose';
import { BankProtocolError } from '../errors.js';
import { HttpCore, isJsonObject, parseErrorBody, parseJsonBody, type ConnectorLogger, type HttpAnswer } from '../http/core.js';
import { oauthFormPost, issuedToken } from '../http/oauth2.js';
import { clientAssertion, PS256, type SigningKeys } from './jose.js';

const CIBA_GRANT = 'urn:openid:params:grant-type:ciba';
/** How long a registration request is valid: the bank checks `exp`; a minute covers a slow network and clock skew. */
const REQUEST_LIFETIME_SECONDS = 5 * 60;

/** Our side of a registration: who we are towards the bank. */
export interface RegistrationIdentity {
  /** Our OB signing key and its Directory `kid` (the SSA's `software_jwks` publishes its public half). */
  readonly keys: SigningKeys;
  /** The software statement assertion as the directory issued it (OB_SSA_FILE). */
  readonly softwareStatement: string;
  /** `tls_client_auth`: our transport certificate's subject, RFC 4514 (`CN=…,organizationIdentifier=…,O=…,C=…`). */
  readonly transportSubjectDn?: string | undefined;
}

/** What we ask of the bank. */
export interface RegistrationRequest {
  /** The bank's OpenID Provider issuer (discovery names its `registration_endpoint`). */
  readonly issuer: string;
  /** The bank's identifier for the request's `aud`: its directory id where it publishes one; default its issuer. */
  readonly audience?: string | undefined;
  readonly tokenEndpointAuthMethod: 'private_key_jwt' | 'tls_client_auth';
  /** `redirect`: the hybrid flow's code; `decoupled`: CIBA. */
  readonly authorisation: 'redirect' | 'decoupled';
  /** Where the bank sends the payer back; default the SSA's `software_redirect_uris`. */
  readonly redirectUris?: readonly string[] | undefined;
}

/** A registration as the bank answered it, and what we keep to use and manage it. */
export interface BankRegistration {
  readonly clientId: string;
  /** RFC 7592's token for reading, updating and deleting it (a secret: kept sealed). */
  readonly registrationAccessToken: string | undefined;
  /** Where the registration lives; default `{registration_endpoint}/{clientId}`. */
  readonly registrationClientUri: string | undefined;
  readonly tokenEndpointAuthMethod: 'private_key_jwt' | 'tls_client_auth';
  /** Our `http://openbanking.org.uk/iss` in message signatures: `{org_id}/{software_id}` of the SSA. */
  readonly jwsIssuer: string;
  /** The bank's whole answer (no secrets but the access token, which {@link registrationAccessToken} holds). */
  readonly answer: Readonly<Record<string, unknown>>;
}

/**
 * Where a bank's registration is kept: the bank registry implements it (sealed under SECRET_KEYS). `bankId` is the
 * catalogue's provider id.
 */
export interface BankRegistrationStore {
  get(bankId: string): Promise<BankRegistration | undefined>;
  save(bankId: string, registration: BankRegistration): Promise<void>;
  remove(bankId: string): Promise<void>;
}

/** The bank said no: its RFC 7591 error and description, for the operator. */
export class RegistrationRefusedError extends Error {
  override readonly name = 'RegistrationRefusedError';
  constructor(
    readonly operation: string,
    readonly status: number,
    readonly error: string | undefined,
    readonly description: string | undefined,
  ) {
    super(
      `The bank refused ${operation} (HTTP ${status}${error === undefined ? '' : `, ${error}`})${description === undefined ? '' : `: ${description}`}`,
    );
  }
}

export interface RegistrationClientDependencies {
  /** Carries our transport certificate (mutual TLS, which DCR requires) and the banks' CAs. */
  readonly dispatcher: Dispatcher;
  readonly now: () => Date;
  readonly logger?: ConnectorLogger | undefined;
  readonly timeoutMs?: number;
}

interface Endpoints {
  readonly registration: string;
  readonly token: string;
}

/** The DCR client of one bank. */
export class DynamicClientRegistration {
  private readonly http: HttpCore;

  constructor(
    private readonly request: RegistrationRequest,
    private readonly identity: RegistrationIdentity,
    private readonly deps: RegistrationClientDependencies,
  ) {
    this.http = new HttpCore({
      dispatcher: deps.dispatcher,
      timeoutMs: deps.timeoutMs ?? 30_000,
      logger: deps.logger,
      bank: new URL(request.issuer),
    });
  }

  /** The signed registration request (a JWT, PS256 with our key): the UK DCR profile's claims. */
  async signedRequest(): Promise<string> {
    const statement = decodeJwt(this.identity.softwareStatement);
    const softwareId = typeof statement['software_id'] === 'string' ? statement['software_id'] : undefined;
    if (softwareId === undefined) throw new Error('The software statement (OB_SSA_FILE) has no software_id');
    const ssaRedirects = Array.isArray(statement['software_redirect_uris'])
      ? statement['software_redirect_uris'].filter((uri): uri is string => typeof uri === 'string')
      : [];
    const redirectUris = this.request.redirectUris ?? ssaRedirects;
    const method = this.request.tokenEndpointAuthMethod;
    if (method === 'tls_client_auth' && this.identity.transportSubjectDn === undefined)
      throw new Error('tls_client_auth needs our transport certificate (OB_TRANSPORT_CERT_FILE or OB_TRANSPORT_P12_FILE)');
    const decoupled = this.request.authorisation === 'decoupled';
    const iat = Math.floor(this.deps.now().getTime() / 1000);
    return new SignJWT({
      redirect_uris: redirectUris,
      token_endpoint_auth_method: method,
      ...(method === 'private_key_jwt'
        ? { token_endpoint_auth_signing_alg: PS256 }
        : { tls_client_auth_subject_dn: this.identity.transportSubjectDn }),
      grant_types: ['client_credentials', decoupled ? CIBA_GRANT : 'authorization_code'],
      ...(decoupled
        ? {
            backchannel_token_delivery_mode: 'poll',
            backchannel_authentication_request_signing_alg: PS256,
            backchannel_user_code_parameter_supported: false,
          }
        : { response_types: ['code id_token'] }),
      software_id: softwareId,
      scope: 'openid payments',
      software_statement: this.identity.softwareStatement,
      application_type: 'web',
      id_token_signed_response_alg: PS256,
      request_object_signing_alg: PS256,
    })
      .setProtectedHeader({ alg: PS256, kid: this.identity.keys.kid, typ: 'JWT' })
      .setIssuer(softwareId)
      .setAudience(this.request.audience ?? this.request.issuer)
      .setIssuedAt(iat)
      .setExpirationTime(iat + REQUEST_LIFETIME_SECONDS)
      .setJti(randomUUID())
      .sign(this.identity.keys.privateKey);
  }

  /** `POST /register`: a new client at the bank. */
  async register(): Promise<BankRegistration> {
    const endpoints = await this.endpoints();
    const answer = await this.send('register', 'POST', endpoints.registration, { body: await this.signedRequest() });
    if (answer.status !== 201 && answer.status !== 200) throw refusal('register', answer);
    return this.registrationOf('register', answer, undefined);
  }

  /** `GET /register/{ClientId}`: the registration as the bank has it. */
  async read(registration: BankRegistration): Promise<Readonly<Record<string, unknown>>> {
    const answer = await this.send('read the registration', 'GET', await this.clientUri(registration), {
      token: await this.managementToken(registration),
    });
    if (answer.status !== 200) throw refusal('read the registration', answer);
    return jsonObject('read the registration', answer);
  }

  /** `PUT /register/{ClientId}`: the registration again, every claim (DCR 3.3), e.g. after a key or SSA change. */
  async update(registration: BankRegistration): Promise<BankRegistration> {
    const answer = await this.send('update the registration', 'PUT', await this.clientUri(registration), {
      token: await this.managementToken(registration),
      body: await this.signedRequest(),
    });
    if (answer.status !== 200) throw refusal('update the registration', answer);
    return this.registrationOf('update the registration', answer, registration);
  }

  /** `DELETE /register/{ClientId}`. */
  async delete(registration: BankRegistration): Promise<void> {
    const answer = await this.send('delete the registration', 'DELETE', await this.clientUri(registration), {
      token: await this.managementToken(registration),
    });
    if (answer.status !== 204 && answer.status !== 200) throw refusal('delete the registration', answer);
  }

  private async endpoints(): Promise<Endpoints> {
    const url = new URL(`${this.request.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`);
    const answer = await this.send('discovery', 'GET', url.toString(), {});
    if (answer.status !== 200) throw refusal('discovery', answer);
    const document = jsonObject('discovery', answer);
    const registration = document['registration_endpoint'];
    const token = document['token_endpoint'];
    if (typeof registration !== 'string')
      throw new BankProtocolError('discovery', 'the bank publishes no registration_endpoint (no dynamic client registration)');
    if (typeof token !== 'string') throw new BankProtocolError('discovery', 'the bank publishes no token_endpoint');
    return { registration, token };
  }

  private async clientUri(registration: BankRegistration): Promise<string> {
    return registration.registrationClientUri ?? `${(await this.endpoints()).registration}/${encodeURIComponent(registration.clientId)}`;
  }

  /**
   * The bearer token of GET/PUT/DELETE: the registration access token (RFC 7592) where the bank gave one, else a
   * client-credentials token of the client (DCR 3.3, "Authentication").
   */
  private async managementToken(registration: BankRegistration): Promise<string> {
    if (registration.registrationAccessToken !== undefined) return registration.registrationAccessToken;
    const endpoint = (await this.endpoints()).token;
    const { status, body } = await oauthFormPost(this.http, {
      operation: 'token',
      endpoint,
      parameters: { grant_type: 'client_credentials' },
      authenticate: async (form) => {
        if (registration.tokenEndpointAuthMethod === 'private_key_jwt') {
          form.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
          form.set('client_assertion', await clientAssertion(this.identity.keys, registration.clientId, endpoint, this.deps.now()));
        } else {
          form.set('client_id', registration.clientId);
        }
      },
    });
    if (status !== 200) {
      throw new RegistrationRefusedError(
        'a client-credentials token',
        status,
        typeof body['error'] === 'string' ? body['error'] : undefined,
        typeof body['error_description'] === 'string' ? body['error_description'] : undefined,
      );
    }
    return issuedToken('token', body).accessToken;
  }

  private registrationOf(operation: string, answer: HttpAnswer, previous: BankRegistration | undefined): BankRegistration {
    const json = jsonObject(operation, answer);
    const clientId = json['client_id'];
    if (typeof clientId !== 'string' || clientId === '') throw new BankProtocolError(operation, 'the answer has no client_id');
    const { registration_access_token: token, ...rest } = json;
    const statement = decodeJwt(this.identity.softwareStatement);
    const softwareId = String(statement['software_id']);
    return {
      clientId,
      registrationAccessToken: typeof token === 'string' ? token : previous?.registrationAccessToken,
      registrationClientUri:
        typeof json['registration_client_uri'] === 'string' ? json['registration_client_uri'] : previous?.registrationClientUri,
      tokenEndpointAuthMethod: this.request.tokenEndpointAuthMethod,
      jwsIssuer: typeof statement['org_id'] === 'string' ? `${statement['org_id']}/${softwareId}` : softwareId,
      answer: rest,
    };
  }

  private send(
    operation: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    options: { token?: string; body?: string },
  ): Promise<HttpAnswer> {
    return this.http.send({
      operation,
      method,
      url: new URL(url),
      headers: {
        Accept: 'application/json',
        ...(options.token === undefined ? {} : { Authorization: `Bearer ${options.token}` }),
        ...(options.body === undefined ? {} : { 'Content-Type': 'application/jwt' }),
      },
      ...(options.body === undefined ? {} : { body: options.body }),
      expectedStatuses: [],
    });
  }
}

function jsonObject(operation: string, answer: HttpAnswer): Record<string, unknown> {
  const json = parseJsonBody(operation, answer);
  if (!isJsonObject(json)) throw new BankProtocolError(operation, 'the answer is not a JSON object', answer.status);
  return json;
}

function refusal(operation: string, answer: HttpAnswer): RegistrationRefusedError {
  const body = parseErrorBody(answer);
  const field = (name: string): string | undefined => (isJsonObject(body) && typeof body[name] === 'string' ? body[name] : undefined);
  return new RegistrationRefusedError(operation, answer.status, field('error'), field('error_description'));
}
