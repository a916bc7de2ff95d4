/** The console's cookie attributes: Secure exactly when BASE_URL is https (browsers drop Secure cookies over http). */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { FastifyReply } from 'fastify';
import { clearConsoleCookie, setConsoleCookie } from '../../src/console/security.js';

function capture(): { reply: FastifyReply; headers: string[] } {
  const headers: string[] = [];
  const reply = {
    header: (name: string, value: string) => (name.toLowerCase() === 'set-cookie' ? headers.push(value) : undefined),
  } as unknown as FastifyReply;
  return { reply, headers };
}

it('marks the session cookie Secure, HttpOnly, SameSite=Strict and /console-only under https', () => {
  const { reply, headers } = capture();
  setConsoleCookie(reply, { secure: true }, 'openpis_console', 'value');
  assert.deepEqual(headers, ['openpis_console=value; Path=/console; HttpOnly; Secure; SameSite=Strict']);
});

it('leaves Secure out under plain http (a trial on this machine), and clears with Max-Age=0', () => {
  const { reply, headers } = capture();
  setConsoleCookie(reply, { secure: false }, 'openpis_console', 'value');
  clearConsoleCookie(reply, { secure: false }, 'openpis_console');
  assert.deepEqual(headers, [
    'openpis_console=value; Path=/console; HttpOnly; SameSite=Strict',
    'openpis_console=; Max-Age=0; Path=/console; HttpOnly; SameSite=Strict',
  ]);
});
