import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabaseKinds } from '../helpers/databases.js';
import { paymentRequest, withField } from '../helpers/payment-requests.js';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app.js';

/** Payment ids are time-ordered UUIDs, version 7 (docs/api-decisions.md, "Ids"). */
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface Created {
  paymentId: string;
  redirectUrl: string;
  status: string;
  createdAt: string;
  updatedAt: string;
}

for (const kind of await testDatabaseKinds()) {
  describe(`payments API [${kind.name}]`, () => {
    let t: TestApp;
    let client: TestClient;
    let token: string;
    before(async () => {
      t = await startTestApp(kind);
      client = await t.createClient();
      token = await client.token();
    });
    after(() => t.close());

    const create = (body: unknown, headers: Record<string, string> = {}, bearer = token) =>
      t.request('/api/v1/ob/payments', { method: 'POST', token: bearer, json: body, headers });
    const bankId = (name: string): string => {
      const bank = t.catalogue.banks('sandbox').find((candidate) => candidate.name === name);
      assert.ok(bank);
      return bank.id;
    };

    describe('POST /api/v1/ob/payments', () => {
      it('creates a hosted-mode payment: 201, PENDING, redirect under BASE_URL, first status recorded', async () => {
        const request = paymentRequest();
        const response = await create(request);
        assert.equal(response.status, 201);
        const body = (await response.json()) as Created;
        assert.deepEqual(Object.keys(body).sort(), ['createdAt', 'paymentId', 'redirectUrl', 'status', 'updatedAt']);
        assert.match(body.paymentId, UUID_V7);
        assert.equal(body.status, 'PENDING');
        assert.match(body.createdAt, ISO);
        assert.equal(body.createdAt, body.updatedAt);
        assert.ok(body.redirectUrl.startsWith(`${t.baseUrl}/pay/`));
        // The link carries 256 random bits, not the payment id.
        const secret = body.redirectUrl.slice(`${t.baseUrl}/pay/`.length);
        assert.match(secret, /^[A-Za-z0-9_-]{43}$/);
        assert.ok(!body.redirectUrl.includes(body.paymentId));

        const history = await t.request(`/api/v1/archive/payment-statuses?paymentId=${body.paymentId}`, { token });
        assert.equal(history.status, 200);
        const records = (await history.json()) as Record<string, unknown>[];
        assert.equal(records.length, 1);
        assert.deepEqual(
          { ...records[0], id: 'x' },
          {
            id: 'x',
            paymentId: body.paymentId,
            status: 'PENDING',
            detailedStatus: 'PROVIDER_SELECTION_REDIRECT_PENDING',
            failureReasons: null,
            createdAt: body.createdAt,
          },
        );

        const stored = await t.database.db.selectFrom('payments').selectAll().where('id', '=', body.paymentId).executeTakeFirstOrThrow();
        assert.equal(stored.amount, '10.50');
        assert.equal(stored.mode, 'hosted');
      });

      it('creates a custom-mode payment that starts at the follow-up data check', async () => {
        const providerId = bankId('Rheinland Sandbox Bank');
        const response = await create(paymentRequest({ provider: { id: providerId } }));
        assert.equal(response.status, 201);
        const { paymentId } = (await response.json()) as Created;
        const latest = (await (
          await t.request(`/api/v1/archive/payment-statuses/latest?paymentId=${paymentId}`, { token })
        ).json()) as Record<string, unknown>;
        assert.equal(latest.detailedStatus, 'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING');
        const payment = (await (await t.request(`/api/v1/ob/payments/${paymentId}`, { token })).json()) as Record<string, unknown>;
        assert.deepEqual(payment.provider, { id: providerId, name: 'Rheinland Sandbox Bank' });
      });

      it('answers 400 with every violated rule in one message', async () => {
        const response = await create({ ...paymentRequest({ amount: 0 }), recipient: undefined, provider: { id: 'abc' } });
        assert.equal(response.status, 400);
        const body = (await response.json()) as { title: string; statusCode: number; message: string };
        assert.equal(body.title, 'Bad Request');
        assert.equal(body.statusCode, 400);
        const rules = body.message.split(', ');
        assert.ok(rules.includes('provider.id must be a UUID'), body.message);
        assert.ok(rules.includes('recipient should not be empty'), body.message);
        assert.ok(rules.includes('amount must not be less than 0.01'), body.message);
      });

      it('answers 404 for an unknown provider id', async () => {
        const response = await create(paymentRequest({ provider: { id: '6f1d0c52-8a0e-4b7e-9d55-2f7f3c1e9a10' } }));
        assert.equal(response.status, 404);
        assert.deepEqual(await response.json(), {
          title: 'Not Found',
          statusCode: 404,
          message: 'Provider 6f1d0c52-8a0e-4b7e-9d55-2f7f3c1e9a10 not found',
        });
      });

      it('a production client cannot use a sandbox bank (404)', async () => {
        const production = await t.createClient({ environment: 'production' });
        const response = await create(paymentRequest({ provider: { id: bankId('Rheinland Sandbox Bank') } }), {}, await production.token());
        assert.equal(response.status, 404);
      });

      it('answers 409 for a repeated endToEndId of the same client, but not of another client', async () => {
        const request = paymentRequest();
        assert.equal((await create(request)).status, 201);
        const again = await create(request);
        assert.equal(again.status, 409);
        const body = (await again.json()) as { title: string; message: string };
        assert.equal(body.title, 'Conflict');
        assert.match(body.message, /endToEndId/);
        const other = await t.createClient();
        assert.equal((await create(request, {}, await other.token())).status, 201);
      });

      it('twenty identical requests at once create exactly one payment', async () => {
        const request = paymentRequest();
        const responses = await Promise.all(Array.from({ length: 20 }, () => create(request)));
        const statuses = responses.map((response) => response.status).sort();
        assert.deepEqual(statuses, [201, ...Array(19).fill(409)]);
        const e2e = (request.metadata as { endToEndId: string }).endToEndId;
        const rows = await t.database.db.selectFrom('payments').select('id').where('end_to_end_id', '=', e2e).execute();
        assert.equal(rows.length, 1);
        const history = await t.database.db
          .selectFrom('payment_status_history')
          .select('id')
          .where('payment_id', '=', rows[0]?.id ?? '')
          .execute();
        assert.equal(history.length, 1);
        // Its dependents once, and a refused request writes none (its own payment id appears nowhere).
        const events = await t.database.db
          .selectFrom('events')
          .select(['subject_id', 'position'])
          .where('body', 'like', `%${e2e}%`)
          .execute();
        assert.deepEqual(
          events.map((event) => event.subject_id),
          [rows[0]?.id],
        );
        assert.ok(Number(events[0]?.position) > 0);
        const jobs = await t.database.db
          .selectFrom('jobs')
          .select('kind')
          .where('subject_id', '=', rows[0]?.id ?? '')
          .execute();
        assert.deepEqual(
          jobs.map((job) => job.kind),
          ['flow-expiry'],
        );
      });

      it('keeps a valid Accept-Language for the payer and ignores invalid ones', async () => {
        const cases: [string | undefined, string | null][] = [
          ['de-DE,de;q=0.9,en;q=0.8', 'de'],
          ['xx, lt;q=0.5', 'lt'],
          ['not a language', null],
          [undefined, null],
        ];
        for (const [header, locale] of cases) {
          const response = await create(paymentRequest(), header === undefined ? {} : { 'accept-language': header });
          assert.equal(response.status, 201);
          const { paymentId } = (await response.json()) as Created;
          const row = await t.database.db.selectFrom('payments').select('locale').where('id', '=', paymentId).executeTakeFirstOrThrow();
          assert.equal(row.locale, locale, String(header));
        }
      });

      it('never stores the payer credentials, neither password nor login id', async () => {
        const providerId = bankId('Hansa Direktbank Sandbox');
        const response = await create(
          paymentRequest({ provider: { id: providerId }, sender: { credentials: { id: 'user-4711', password: 'S3cret-pass-phrase' } } }),
        );
        assert.equal(response.status, 201);
        const rows = await t.database.db.selectFrom('payments').selectAll().execute();
        const dump = JSON.stringify(rows);
        assert.ok(!dump.includes('S3cret-pass-phrase'));
        assert.ok(!dump.includes('user-4711'));
      });

      it('answers 401 without or with a bad token, 403 without payments:write', async () => {
        const missing = await t.request('/api/v1/ob/payments', { method: 'POST', json: paymentRequest() });
        assert.equal(missing.status, 401);
        assert.equal(missing.headers.get('www-authenticate'), 'Bearer realm="openpis"');
        assert.deepEqual(await missing.json(), { title: 'Unauthorized', statusCode: 401, message: 'Unauthorized' });
        assert.equal((await create(paymentRequest(), {}, 'opt_forged')).status, 401);
        assert.equal(
          (await t.request('/api/v1/ob/payments', { method: 'POST', json: paymentRequest(), headers: { authorization: 'Basic abc' } }))
            .status,
          401,
        );
        const readOnly = await client.token('payments:read');
        const forbidden = await create(paymentRequest(), {}, readOnly);
        assert.equal(forbidden.status, 403);
        assert.deepEqual(await forbidden.json(), { title: 'Forbidden', statusCode: 403, message: 'Access denied' });
      });

      it('refuses at creation a webhook URL that can never be delivered to', async () => {
        for (const [url, message] of [
          ['https://user:pw@hooks.example/x', 'metadata.webhookUrl must not contain a user name or password'],
          [
            'https://169.254.169.254/latest/meta-data',
            'metadata.webhookUrl must point to a public address (cloud metadata addresses are not allowed)',
          ],
          ['https://127.0.0.1/hooks', 'metadata.webhookUrl must point to a public address (loopback addresses are not allowed)'],
        ] as const) {
          const response = await create(withField(paymentRequest(), 'metadata.webhookUrl', url));
          assert.equal(response.status, 400, url);
          assert.deepEqual(await response.json(), { title: 'Bad Request', statusCode: 400, message }, url);
        }
      });

      it('answers 415 for a non-JSON body and 413 for a body over 1 MiB', async () => {
        const wrongType = await t.request('/api/v1/ob/payments', {
          method: 'POST',
          token,
          headers: { 'content-type': 'text/plain' },
          body: 'hello',
        });
        assert.equal(wrongType.status, 415);
        assert.deepEqual(await wrongType.json(), {
          title: 'Unsupported Media Type',
          statusCode: 415,
          message: 'Content-Type must be application/json',
        });
        // A form body has a parser (the token endpoint takes forms) but is the same fault here, with the same answer.
        const form = await t.request('/api/v1/ob/payments', {
          method: 'POST',
          token,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'amount=1',
        });
        assert.equal(form.status, 415);
        assert.deepEqual(await form.json(), {
          title: 'Unsupported Media Type',
          statusCode: 415,
          message: 'Content-Type must be application/json',
        });
        const huge = withField(paymentRequest(), 'metadata.psuUserAgent', 'x'.repeat(1024 * 1024 + 10));
        const tooLarge = await create(huge);
        assert.equal(tooLarge.status, 413);
        const broken = await t.request('/api/v1/ob/payments', {
          method: 'POST',
          token,
          headers: { 'content-type': 'application/json' },
          body: '{"amount":',
        });
        assert.equal(broken.status, 400);
        assert.equal(((await broken.json()) as { message: string }).message, 'Request body is not valid JSON');
      });
    });

    describe('reading payments and statuses', () => {
      let paymentId: string;
      let createdAt: string;
      before(async () => {
        const response = await create(
          paymentRequest({ amount: 1234.5, remittanceInformation: { type: 'UNSTRUCTURED', value: 'Order 42' } }),
        );
        ({ paymentId, createdAt } = (await response.json()) as Created);
      });

      it('GET /api/v1/ob/payments/{id} returns the payment', async () => {
        const response = await t.request(`/api/v1/ob/payments/${paymentId}`, { token });
        assert.equal(response.status, 200);
        const body = (await response.json()) as Record<string, unknown>;
        assert.equal(body.paymentId, paymentId);
        assert.equal(body.status, 'PENDING');
        assert.equal(body.detailedStatus, 'PROVIDER_SELECTION_REDIRECT_PENDING');
        assert.equal(body.failureReasons, null);
        assert.equal(body.amount, 1234.5);
        assert.equal(body.currency, 'EUR');
        assert.equal(body.createdAt, createdAt);
        assert.ok(String(body.redirectUrl).startsWith(`${t.baseUrl}/pay/`));
        assert.equal(body.provider, undefined);
      });

      it('latest status returns one record of the history', async () => {
        const latest = await t.request(`/api/v1/archive/payment-statuses/latest?paymentId=${paymentId}`, { token });
        assert.equal(latest.status, 200);
        const record = (await latest.json()) as Record<string, unknown>;
        const history = (await (await t.request(`/api/v1/archive/payment-statuses?paymentId=${paymentId}`, { token })).json()) as Record<
          string,
          unknown
        >[];
        assert.deepEqual(record, history[history.length - 1]);
      });

      it('answers 400 for a missing or malformed id', async () => {
        for (const path of [
          '/api/v1/archive/payment-statuses',
          '/api/v1/archive/payment-statuses?paymentId=abc',
          '/api/v1/archive/payment-statuses/latest?paymentId=',
          '/api/v1/ob/payments/not-a-uuid',
        ]) {
          const response = await t.request(path, { token });
          assert.equal(response.status, 400, path);
          const body = (await response.json()) as { title: string; message: string };
          assert.equal(body.title, 'Bad Request');
          assert.match(body.message, /^paymentId (must be a UUID|should not be empty)$/, path);
        }
      });

      it("answers 404 for an unknown id and for another client's payment alike", async () => {
        const other = await t.createClient();
        const otherToken = await other.token();
        const unknown = '11111111-1111-4111-8111-111111111111';
        for (const [id, bearer] of [
          [unknown, token],
          [paymentId, otherToken],
        ] as const) {
          for (const path of [
            `/api/v1/ob/payments/${id}`,
            `/api/v1/archive/payment-statuses?paymentId=${id}`,
            `/api/v1/archive/payment-statuses/latest?paymentId=${id}`,
          ]) {
            const response = await t.request(path, { token: bearer });
            assert.equal(response.status, 404, path);
            assert.deepEqual(await response.json(), { title: 'Not Found', statusCode: 404, message: `Payment ${id} not found` });
          }
        }
      });

      it('needs payments:read (403) and a token (401)', async () => {
        const writeOnly = await client.token('payments:write');
        for (const path of [
          `/api/v1/ob/payments/${paymentId}`,
          `/api/v1/archive/payment-statuses?paymentId=${paymentId}`,
          `/api/v1/archive/payment-statuses/latest?paymentId=${paymentId}`,
        ]) {
          assert.equal((await t.request(path, { token: writeOnly })).status, 403, path);
          assert.equal((await t.request(path)).status, 401, path);
        }
      });
    });
  });
}
