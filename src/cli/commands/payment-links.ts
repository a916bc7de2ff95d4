/**
 * `openpis payment-links …`: a client's payment links, as the API makes and reads them (docs/api-decisions.md,
 * "Payment links"): create one from the API's request body, list them, show one, deactivate one. For the operator
 * acting for a client (`--client`); creating and deactivating are audited as the console's actions are.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { PaymentLink } from '../../domain/payment-link.js';
import { recordCliAction } from '../audit.js';
import { print, table, uuidArgument, wholeNumber } from '../output.js';
import { withRuntime, withStore } from '../store.js';

export function paymentLinksCommand(program: Command): Command {
  const links = program.command('payment-links').description("a client's payment links: create, list, show, deactivate");
  links
    .command('create')
    .description('create a payment link from the body of POST /api/v1/ob/payment-links, and print it with its URL')
    .requiredOption('--client <clientId>', 'the client the link is for', uuidArgument('--client'))
    .requiredOption('--request <file>', 'the request body as JSON (`-`: standard input)')
    .option('--json', 'print JSON')
    .action(createPaymentLink);
  links
    .command('list')
    .description("a client's payment links, newest first")
    .requiredOption('--client <clientId>', 'the client', uuidArgument('--client'))
    .option('--limit <count>', 'how many', wholeNumber('--limit', 1, 1000), 50)
    .option('--json', 'print JSON')
    .action(listPaymentLinks);
  links
    .command('show')
    .description('a payment link with its URL and the payments payers started from it')
    .argument('<paymentLinkId>', 'the link', uuidArgument('paymentLinkId'))
    .option('--json', 'print JSON')
    .action(showPaymentLink);
  links
    .command('deactivate')
    .description('stop an ACTIVE link taking payments (a payment already started goes on)')
    .argument('<paymentLinkId>', 'the link', uuidArgument('paymentLinkId'))
    .action(deactivatePaymentLink);
  return links;
}

function fail(message: string): void {
  process.stderr.write(`${message}\n`);
  process.exitCode = 1;
}

function linkLine(link: PaymentLink, url: string): string {
  return `${link.id}  ${link.reference}  ${link.status}  ${link.amount} ${link.currency}  ${link.reusable ? 'reusable' : 'single use'}  expires ${link.expiresAt}\n${url}`;
}

export async function createPaymentLink(options: { client: string; request: string; json?: boolean }): Promise<void> {
  const [{ PaymentLinkStore }, { PaymentLinkService, paymentLinkUrl, paymentLinkView }, { validatePaymentLinkCreation }, { ApiError }] =
    await Promise.all([
      import('../../flow/payment-link-store.js'),
      import('../../payment-links/payment-link-service.js'),
      import('../../payment-links/validation.js'),
      import('../../http/errors.js'),
    ]);
  const text = readFileSync(options.request === '-' ? 0 : options.request, 'utf8');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    fail('The request is not JSON.');
    return;
  }
  await withRuntime(async ({ database, secrets, config, catalogue }) => {
    const client = await database.db
      .selectFrom('clients')
      .select(['id', 'environment'])
      .where('id', '=', options.client)
      .executeTakeFirst();
    if (client === undefined) return fail(`No client with id ${options.client}`);
    const result = validatePaymentLinkCreation(
      body,
      { environment: client.environment, catalogue, allowPrivateWebhookTargets: config.webhooks.allowPrivateTargets },
      new Date(),
    );
    if (result.kind === 'invalid') return fail(`The request breaks these rules: ${result.violations.join(', ')}`);
    if (result.kind === 'unknown-provider') return fail(`Provider ${result.providerId} not found`);
    try {
      const link = await new PaymentLinkService(new PaymentLinkStore(database.db, secrets)).create(
        { clientId: client.id, environment: client.environment },
        result.link,
      );
      await recordCliAction(database.db, {
        action: 'payment_link.created',
        clientId: client.id,
        target: link.id,
        details: { reference: link.reference },
      });
      print(paymentLinkView(link, config.baseUrl), options.json === true, () => linkLine(link, paymentLinkUrl(config.baseUrl, link)));
    } catch (error) {
      if (error instanceof ApiError) return fail(error.message);
      throw error;
    }
  });
}

export async function listPaymentLinks(options: { client: string; limit: number; json?: boolean }): Promise<void> {
  const [{ PaymentLinkStore }, { paymentLinkView }] = await Promise.all([
    import('../../flow/payment-link-store.js'),
    import('../../payment-links/payment-link-service.js'),
  ]);
  await withStore(async ({ database, secrets, config }) => {
    const links = await new PaymentLinkStore(database.db, secrets).listForClient(options.client, {}, options.limit, undefined);
    print(
      links.map((link) => paymentLinkView(link, config.baseUrl)),
      options.json === true,
      () =>
        links.length === 0
          ? 'No payment links.'
          : table(
              ['ID', 'REFERENCE', 'STATUS', 'AMOUNT', 'EXPIRES'],
              links.map((link) => [link.id, link.reference, link.status, `${link.amount} ${link.currency}`, link.expiresAt]),
            ),
    );
  });
}

export async function showPaymentLink(paymentLinkId: string, options: { json?: boolean }): Promise<void> {
  const [{ PaymentLinkStore }, { paymentLinkUrl, paymentLinkView }] = await Promise.all([
    import('../../flow/payment-link-store.js'),
    import('../../payment-links/payment-link-service.js'),
  ]);
  await withStore(async ({ database, secrets, config }) => {
    const store = new PaymentLinkStore(database.db, secrets);
    const found = await store.findVisible(paymentLinkId, undefined);
    if (found === undefined) return fail(`No payment link with id ${paymentLinkId}`);
    const link = await store.current(found);
    const payments = await store.paymentsOf(link);
    print(
      {
        ...paymentLinkView(link, config.baseUrl),
        payments: payments.map((payment) => ({
          paymentId: payment.id,
          endToEndId: payment.endToEndId,
          detailedStatus: payment.detailedStatus,
        })),
      },
      options.json === true,
      () =>
        [
          linkLine(link, paymentLinkUrl(config.baseUrl, link)),
          '',
          payments.length === 0
            ? 'No payments yet.'
            : table(
                ['PAYMENT', 'END-TO-END ID', 'DETAILED STATUS'],
                payments.map((payment) => [payment.id, payment.endToEndId, payment.detailedStatus]),
              ),
        ].join('\n'),
    );
  });
}

export async function deactivatePaymentLink(paymentLinkId: string): Promise<void> {
  const { PaymentLinkStore } = await import('../../flow/payment-link-store.js');
  await withStore(async ({ database, secrets }) => {
    const store = new PaymentLinkStore(database.db, secrets);
    const found = await store.findVisible(paymentLinkId, undefined);
    if (found === undefined) return fail(`No payment link with id ${paymentLinkId}`);
    const link = await store.close(found, 'DEACTIVATED');
    if (link.status !== 'DEACTIVATED') return fail(`Payment link ${paymentLinkId} is ${link.status} and cannot be deactivated`);
    if (found.status === 'ACTIVE')
      await recordCliAction(database.db, { action: 'payment_link.deactivated', clientId: link.clientId, target: link.id });
    process.stdout.write(`Payment link ${paymentLinkId} is DEACTIVATED.\n`);
  });
}
