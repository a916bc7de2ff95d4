/**
 * Fault injection over HTTP (`/<slug>/sandbox/faults`); exists only in the sandbox. A rule makes calls of every
 * client of the bank fail, so every fault route requires the operator token (SANDBOX_OPERATOR_TOKEN) as a bearer
 * token.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Compile } from 'typebox/compile';
import { FaultRuleSchema } from '../../shared/faults.js';
import { operatorTokenCheck } from '../../shared/operator-token.js';
import { requireBank, type BankContext } from '../context.js';
import { Xs2aError } from '../errors.js';

const checkFaultRule = Compile(FaultRuleSchema);

export function registerFaultControl(app: FastifyInstance, context: BankContext, operatorToken: string | undefined): void {
  type Params = { slug: string };
  const isOperator = operatorTokenCheck(operatorToken);
  const operatorOnly = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const check = isOperator(request);
    if (check.allowed) return;
    const error = new Xs2aError('TOKEN_INVALID', check.message);
    await reply.code(error.status).header('www-authenticate', 'Bearer').type('application/json').send(error.body());
  };
  app.post<{ Params: Params }>('/:slug/sandbox/faults', { onRequest: operatorOnly }, async (request, reply) => {
    const bank = requireBank(context, request.params.slug);
    const body: unknown = request.body;
    if (typeof body !== 'object' || body === null) throw new Xs2aError('FORMAT_ERROR', 'Send a JSON fault rule');
    const rule: unknown = { ...body, bank: bank.slug };
    if ('bank' in body && body.bank !== bank.slug) throw new Xs2aError('FORMAT_ERROR', 'bank must match the path');
    if (!checkFaultRule.Check(rule)) {
      const first = checkFaultRule.Errors(rule)[0];
      throw new Xs2aError('FORMAT_ERROR', `${first?.instancePath || 'rule'} ${first?.message ?? 'is invalid'}`);
    }
    const id = context.faults.inject(rule);
    return reply.code(201).send({ id, ...rule });
  });
  app.get<{ Params: Params }>('/:slug/sandbox/faults', { onRequest: operatorOnly }, async (request, reply) => {
    const bank = requireBank(context, request.params.slug);
    return reply.send({ faults: context.faults.list(bank.slug) });
  });
  app.delete<{ Params: Params }>('/:slug/sandbox/faults', { onRequest: operatorOnly }, async (request, reply) => {
    const bank = requireBank(context, request.params.slug);
    context.faults.clear(bank.slug);
    return reply.code(204).send();
  });
  app.delete<{ Params: Params & { id: string } }>('/:slug/sandbox/faults/:id', { onRequest: operatorOnly }, async (request, reply) => {
    requireBank(context, request.params.slug);
    if (!context.faults.remove(request.params.id)) throw new Xs2aError('RESOURCE_UNKNOWN', 'No such fault rule', { status: 404 });
    return reply.code(204).send();
  });
}
