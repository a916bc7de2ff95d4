/**
 * The sandbox operator's credential for fault injection (SANDBOX_OPERATOR_TOKEN), shared by every standard the
 * sandbox bank speaks: a fault rule makes calls of every client of a bank fail, so only the operator may set one.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

export type OperatorCheck = { readonly allowed: true } | { readonly allowed: false; readonly message: string };

function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** A check of requests against the operator token; with no token set, fault injection over HTTP is off. */
export function operatorTokenCheck(operatorToken: string | undefined): (request: FastifyRequest) => OperatorCheck {
  const expected = operatorToken === undefined ? undefined : sha256(operatorToken);
  return (request) => {
    const sent = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    // Fixed-length digests compared in constant time, so the comparison says nothing about the token.
    if (expected !== undefined && sent !== undefined && timingSafeEqual(sha256(sent), expected)) return { allowed: true };
    return {
      allowed: false,
      message:
        expected === undefined
          ? 'Fault injection over HTTP is off: the operator has not set SANDBOX_OPERATOR_TOKEN'
          : 'Fault injection is for the sandbox operator: send SANDBOX_OPERATOR_TOKEN as a bearer token',
    };
  };
}
