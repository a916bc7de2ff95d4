/**
 * `openpis refunds create`: a refund of a client's completed payment (docs/api-decisions.md, "Refunds"), made through
 * the running service's API (BASE_URL) as the payment's client, like `openpis trigger` acts for a client: with an
 * access token issued here from the database for the payment's own client, deleted afterwards. Prints the refund and
 * the link its approver opens.
 */
import type { Command } from 'commander';
import { print, uuidArgument } from '../output.js';
import { withStore } from '../store.js';

export function refundsCommand(program: Command): Command {
  const refunds = program.command('refunds').description("refunds of clients' completed payments");
  refunds
    .command('create')
    .description("refund a completed payment to the payer's account, through the running service (BASE_URL), as the payment's client")
    .requiredOption('--payment <paymentId>', 'the completed payment to refund', uuidArgument('--payment'))
    .option('--amount <amount>', 'the amount, e.g. 4.00 (default: all that is left to refund)')
    .requiredOption('--reference <text>', "the refund's remittance information, shown to the payer")
    .requiredOption('--end-to-end-id <id>', "the refund's id in the client's system, unique per client")
    .requiredOption('--redirect-uri <url>', "where the merchant's approver is sent when the refund's flow ends")
    .option('--payer-name <name>', "the payer's name, used only when the bank did not name the account's holder")
    .option('--webhook-url <url>', "receives a webhook when the refund's status changes")
    .option('--url <url>', 'the service (default: BASE_URL)')
    .option('--json', 'print JSON')
    .action(createRefund);
  return refunds;
}

export interface CreateRefundOptions {
  readonly payment: string;
  readonly amount?: string;
  readonly reference: string;
  readonly endToEndId: string;
  readonly redirectUri: string;
  readonly payerName?: string;
  readonly webhookUrl?: string;
  readonly url?: string;
  readonly json?: boolean;
}

interface RefundResource {
  readonly paymentId: string;
  readonly refundOf: string;
  readonly amount: number;
  readonly currency: string;
  readonly status: string;
  readonly redirectUrl: string;
}

export async function createRefund(options: CreateRefundOptions): Promise<void> {
  const { apiClient, deleteToken, issueToken, TriggerError } = await import('../../sandbox-scenarios/scenarios.js');
  const refund = await withStore(async (store) => {
    const payment = await store.database.db.selectFrom('payments').select('client_id').where('id', '=', options.payment).executeTakeFirst();
    if (payment === undefined) throw new TriggerError(`No payment with id ${options.payment}`);
    const token = await issueToken(store.database.db, payment.client_id);
    try {
      const api = apiClient((options.url ?? store.config.baseUrl).replace(/\/+$/, ''), token);
      return await api<RefundResource>(
        'POST',
        `/api/v1/ob/payments/${options.payment}/refunds`,
        {
          ...(options.amount === undefined ? {} : { amount: options.amount }),
          reference: options.reference,
          ...(options.payerName === undefined ? {} : { payerName: options.payerName }),
          metadata: {
            redirectUri: options.redirectUri,
            endToEndId: options.endToEndId,
            ...(options.webhookUrl === undefined ? {} : { webhookUrl: options.webhookUrl }),
          },
        },
        201,
      );
    } finally {
      await deleteToken(store.database.db, token);
    }
  });
  print(refund, options.json === true, () =>
    [
      `Refund ${refund.paymentId} of payment ${refund.refundOf}: ${refund.amount} ${refund.currency}, ${refund.status}`,
      `The merchant's approver authorises it at: ${refund.redirectUrl}`,
    ].join('\n'),
  );
}
