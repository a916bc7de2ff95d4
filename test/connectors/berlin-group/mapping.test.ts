import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { authorisationIdFromLinks, nextScaStep, scaApproachOf, toChallenge } from '../../../src/connectors/berlin-group/mapping.js';
import { mapScaStatus } from '../../../src/connectors/berlin-group/status-maps.js';
import type { ScaMethod } from '../../../src/connectors/contract.js';

const methods: ScaMethod[] = [
  { id: 'sms', type: 'SMS_OTP' },
  { id: 'push', type: 'PUSH_OTP' },
];
const step = (links: Record<string, string>, scaStatus?: string, scaMethods: ScaMethod[] = []) =>
  nextScaStep({
    links,
    scaStatus: scaStatus === undefined ? undefined : mapScaStatus(scaStatus),
    scaMethods,
    chosenScaMethod: undefined,
    challenge: undefined,
    resolveRedirect: (href) => new URL(href, 'https://bank.example/xs2a/').href,
  });

describe('next SCA step from the bank’s links', () => {
  test('final SCA statuses decide whatever the links say', () => {
    assert.deepEqual(step({ scaRedirect: '/x' }, 'finalised'), { kind: 'authorised' });
    assert.deepEqual(step({}, 'exempted'), { kind: 'authorised' });
    assert.deepEqual(step({ authoriseTransaction: '/x' }, 'failed'), { kind: 'failed' });
  });

  test('scaRedirect → redirect, resolved against the bank', () => {
    assert.deepEqual(step({ scaRedirect: '/sca/1', scaStatus: '/a' }, 'received'), { kind: 'redirect', url: 'https://bank.example/sca/1' });
  });

  test('method selection (with methods) comes before the redirect', () => {
    assert.deepEqual(step({ selectAuthenticationMethod: '/a', scaRedirect: '/r' }, 'psuAuthenticated', methods), {
      kind: 'select-sca-method',
      methods,
    });
  });

  test('authoriseTransaction → one-time code; updatePsuAuthentication → password', () => {
    assert.equal(step({ authoriseTransaction: '/a', scaStatus: '/a' }, 'scaMethodSelected')?.kind, 'authorise-transaction');
    assert.deepEqual(step({ updatePsuAuthentication: '/a', scaStatus: '/a' }, 'psuIdentified'), { kind: 'authenticate' });
  });

  test('start links in order of specificity', () => {
    assert.deepEqual(step({ startAuthorisationWithPsuAuthentication: '/s', startAuthorisation: '/s' }), {
      kind: 'start-authorisation',
      needs: 'psu-authentication',
    });
    assert.deepEqual(step({ startAuthorisationWithPsuIdentification: '/s' }), { kind: 'start-authorisation', needs: 'psu-identification' });
    assert.deepEqual(step({ startAuthorisationWithAuthenticationMethodSelection: '/s' }, undefined, methods), {
      kind: 'start-authorisation',
      needs: 'sca-method-selection',
      methods,
    });
    assert.deepEqual(step({ startAuthorisation: '/s', self: '/p' }), { kind: 'start-authorisation', needs: 'nothing' });
  });

  test('an open authorisation without actionable links → wait (decoupled)', () => {
    assert.deepEqual(step({ scaStatus: '/a' }, 'started'), { kind: 'wait' });
    assert.deepEqual(step({}, 'psuIdentified'), { kind: 'wait' });
    assert.deepEqual(step({}, 'somethingNew'), { kind: 'wait' });
  });

  test('nothing to go by → undefined (the caller decides from the resource status)', () => {
    assert.equal(step({ self: '/p', status: '/p/status' }), undefined);
  });
});

describe('SCA approach and authorisation id', () => {
  test('the bank’s header wins; otherwise the step tells', () => {
    assert.equal(scaApproachOf('EMBEDDED', { kind: 'redirect', url: 'x' }, 'REDIRECT'), 'EMBEDDED');
    assert.equal(scaApproachOf('oauth', undefined, 'EMBEDDED'), 'REDIRECT');
    assert.equal(scaApproachOf(undefined, { kind: 'redirect', url: 'x' }, 'EMBEDDED'), 'REDIRECT');
    assert.equal(scaApproachOf(undefined, { kind: 'authenticate' }, 'REDIRECT'), 'EMBEDDED');
    assert.equal(scaApproachOf(undefined, { kind: 'wait' }, 'DECOUPLED'), 'DECOUPLED');
    assert.equal(scaApproachOf(undefined, { kind: 'wait' }, 'REDIRECT'), undefined);
    assert.equal(scaApproachOf('NONSENSE', { kind: 'start-authorisation', needs: 'nothing' }, 'REDIRECT'), undefined);
  });

  test('authorisation id from the status link', () => {
    assert.equal(authorisationIdFromLinks({ scaStatus: '/v1/payments/p/1/authorisations/abc%20d' }), 'abc d');
    assert.equal(authorisationIdFromLinks({ authoriseTransaction: 'https://b/v1/consents/c/authorisations/x?y=1' }), 'x');
    assert.equal(authorisationIdFromLinks({ self: '/v1/payments/p/1' }), undefined);
  });

  test('challenge: the standard’s example sends otpMaxLength as a string', () => {
    assert.deepEqual(toChallenge({ otpMaxLength: '6', otpFormat: 'integer' }), { otpMaxLength: 6, otpFormat: 'integer' });
    assert.deepEqual(toChallenge({ otpMaxLength: 'six' }), {});
    assert.equal(toChallenge(undefined), undefined);
  });
});
