/**
 * The console's Sandbox page offers fault rules for every sandbox bank of the catalogue, the Berlin Group ones and
 * the UK Open Banking ones alike, each with its own standard's operations: a rule added on the page is held by the
 * sandbox bank itself (as after `openpis sandbox faults add`), listed, and cleared; an operation of the other
 * standard is refused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { OPERATIONS, UK_OPERATIONS } from '@openpis/sandbox-bank';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { type ConsoleBrowser, signedInOperatorAndMember } from './console-http.js';

const [sqlite] = await testDatabaseKinds();

describe('console Sandbox: fault rules of every sandbox bank', () => {
  let app: TestApp;
  let operator: ConsoleBrowser;

  before(async () => {
    if (sqlite === undefined) throw new Error('no database');
    app = await startTestApp(sqlite);
    const shop = await app.createClient({ name: 'Laptop Shop' });
    ({ operator } = await signedInOperatorAndMember(app, shop.clientId));
  });
  after(async () => {
    await app?.close();
  });

  const heldBy = async (path: string): Promise<{ operations?: string[]; fault: { kind: string; status?: number }; times?: number }[]> => {
    const answer = await fetch(`${app.baseUrl}/sandbox-bank/${path}/sandbox/faults`, {
      headers: { authorization: `Bearer ${app.config.sandboxOperatorToken}` },
    });
    assert.equal(answer.status, 200);
    return ((await answer.json()) as { faults: { operations?: string[]; fault: { kind: string; status?: number }; times?: number }[] })
      .faults;
  };
  const select = (html: string, id: string): string =>
    new RegExp(`<select id="${id}" name="${id}">([\\s\\S]*?)</select>`).exec(html)?.[1] ?? '';

  it('offers the UK sandbox banks and their operations beside the Berlin Group ones', async () => {
    const page = await operator.get('/console/sandbox');
    assert.equal(page.status, 200);
    const banks = select(page.html, 'bank');
    for (const [path, name] of [
      ['rheinland', 'Rheinland Sandbox Bank'],
      ['uk/albion', 'Albion Bank Sandbox'],
      ['uk/pennine', 'Pennine Building Society Sandbox'],
      ['uk/severn', 'Severn Savings Sandbox'],
    ]) {
      assert.match(banks, new RegExp(`<option value="${path}">${name}</option>`));
    }
    const operations = select(page.html, 'operation');
    for (const operation of [...OPERATIONS, ...UK_OPERATIONS])
      assert.match(operations, new RegExp(`<option value="${operation}">`), operation);
    // Every bank has its row in the list of rules in force.
    assert.match(page.html, /<strong>Albion Bank Sandbox<\/strong>/);
  });

  it('adds a rule to a UK sandbox bank, which holds it; lists it and clears it', async () => {
    await operator.get('/console/sandbox');
    const added = await operator.post('/console/sandbox/faults', {
      bank: 'uk/albion',
      fault: 'error-503',
      operation: 'createDomesticPayment',
      times: '2',
    });
    assert.equal(added.status, 303);
    assert.equal(added.location, '/console/sandbox?done=added');
    assert.deepEqual(
      (await heldBy('uk/albion')).map((rule) => ({ operations: rule.operations, fault: rule.fault, times: rule.times })),
      [{ operations: ['createDomesticPayment'], fault: { kind: 'error', status: 503 }, times: 2 }],
    );
    const page = await operator.get('/console/sandbox');
    assert.match(page.html, /Albion Bank Sandbox<\/strong>[\s\S]*?HTTP 503 on createDomesticPayment, the next 2 calls/);
    const cleared = await operator.post('/console/sandbox/faults/clear', { bank: 'uk/albion' });
    assert.equal(cleared.location, '/console/sandbox?done=cleared');
    assert.deepEqual(await heldBy('uk/albion'), []);
  });

  it('refuses an operation of the other standard, and a bank that is not a sandbox bank of the catalogue', async () => {
    await operator.get('/console/sandbox');
    const crossed = await operator.post('/console/sandbox/faults', {
      bank: 'uk/severn',
      fault: 'error-500',
      operation: 'initiatePayment',
      times: '',
    });
    assert.equal(crossed.location, '/console/sandbox?error=invalid');
    const berlinCrossed = await operator.post('/console/sandbox/faults', {
      bank: 'rheinland',
      fault: 'error-500',
      operation: 'getDomesticPayment',
      times: '',
    });
    assert.equal(berlinCrossed.location, '/console/sandbox?error=invalid');
    const unknown = await operator.post('/console/sandbox/faults', {
      bank: 'uk/../rheinland',
      fault: 'error-500',
      operation: '',
      times: '',
    });
    assert.equal(unknown.location, '/console/sandbox?error=invalid');
    assert.deepEqual(await heldBy('uk/severn'), []);
    assert.deepEqual(await heldBy('rheinland'), []);
  });
});
