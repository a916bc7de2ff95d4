/**
 * Prometheus metrics (`GET /metrics`). One registry per app instance (not prom-client's global one), so
 * several apps in one process (tests) keep separate counts.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CertificateReport } from '../identity/identity.js';
import type { DeliveryResult } from '../webhooks/deliver.js';

export interface QueueDepthSource {
  jobs(): Promise<{ kind: string; due: number; oldestDueAt: string | null }[]>;
  webhooks(): Promise<{ due: number; oldestDueAt: string | null }>;
}

/** Payments pending at the bank (src/flow/bank-pending.ts), read when scraped. */
export interface BankPendingSource {
  overdue(): Promise<{ overdue: number; oldestCreatedAt: string | null }>;
}

export class Metrics {
  readonly registry = new Registry();

  readonly httpRequestDuration = new Histogram({
    name: 'openpis_http_request_duration_seconds',
    help: 'HTTP request latency by route, method and status code',
    labelNames: ['route', 'method', 'status_code'] as const,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  readonly paymentsCreated = new Counter({
    name: 'openpis_payments_created_total',
    help: 'Payments created, by mode',
    labelNames: ['mode'] as const,
    registers: [this.registry],
  });

  readonly transitions = new Counter({
    name: 'openpis_payment_transitions_total',
    help: 'Status records written, by detailed status entered',
    labelNames: ['detailed_status'] as const,
    registers: [this.registry],
  });

  readonly webhookAttempts = new Counter({
    name: 'openpis_webhook_attempts_total',
    help: 'Webhook delivery attempts, by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly webhookLatency = new Histogram({
    name: 'openpis_webhook_attempt_duration_seconds',
    help: 'Webhook delivery attempt latency',
    labelNames: ['outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
    registers: [this.registry],
  });

  readonly bankCalls = new Counter({
    name: 'openpis_bank_calls_total',
    help: 'Calls to banks, by provider, operation and result',
    labelNames: ['provider', 'operation', 'result'] as const,
    registers: [this.registry],
  });

  readonly bankCallDuration = new Histogram({
    name: 'openpis_bank_call_duration_seconds',
    help: 'Latency of calls to banks, by provider and operation',
    labelNames: ['provider', 'operation'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  /** Refusals of a call about a payment or consent the bank itself gave us, because it does not know it (alert on > 0). */
  readonly bankUnknownResources = new Counter({
    name: 'openpis_bank_unknown_resources_total',
    help: 'Bank calls about a payment or consent the bank gave us, refused because the bank does not know it (404 / RESOURCE_UNKNOWN)',
    labelNames: ['provider', 'operation'] as const,
    registers: [this.registry],
  });

  readonly bankCallRecordsDropped = new Counter({
    name: 'openpis_bank_call_records_dropped_total',
    help: 'Records of bank calls dropped because the database could not take them (the buffer was full)',
    registers: [this.registry],
  });

  readonly jobsFinished = new Counter({
    name: 'openpis_jobs_finished_total',
    help: 'Background jobs run, by kind and result',
    labelNames: ['kind', 'result'] as const,
    registers: [this.registry],
  });

  constructor(queues?: QueueDepthSource, bankPending?: BankPendingSource) {
    collectDefaultMetrics({ register: this.registry, prefix: 'openpis_' });
    if (queues !== undefined) {
      // Read from the database when scraped, so every process reports the shared queue as it is.
      new Gauge({
        name: 'openpis_queue_due',
        help: 'Due items waiting in a background queue',
        labelNames: ['queue'] as const,
        registers: [this.registry],
        async collect() {
          const [jobs, webhooks] = await Promise.all([queues.jobs(), queues.webhooks()]);
          this.reset();
          for (const job of jobs) this.set({ queue: job.kind }, job.due);
          this.set({ queue: 'webhook' }, webhooks.due);
        },
      });
      new Gauge({
        name: 'openpis_queue_oldest_due_age_seconds',
        help: 'Age of the oldest due item of a background queue',
        labelNames: ['queue'] as const,
        registers: [this.registry],
        async collect() {
          const now = Date.now();
          const age = (at: string | null): number => (at === null ? 0 : Math.max(0, (now - Date.parse(at)) / 1000));
          const [jobs, webhooks] = await Promise.all([queues.jobs(), queues.webhooks()]);
          this.reset();
          for (const job of jobs) this.set({ queue: job.kind }, age(job.oldestDueAt));
          this.set({ queue: 'webhook' }, age(webhooks.oldestDueAt));
        },
      });
    }
    if (bankPending !== undefined) {
      // Payments the bank holds without a final status after the payer's part is over: alert on > 0.
      new Gauge({
        name: 'openpis_payments_pending_at_bank_overdue',
        help: 'Payments pending at the bank for longer than BANK_PENDING_ALERT_SECONDS',
        registers: [this.registry],
        async collect() {
          this.set((await bankPending.overdue()).overdue);
        },
      });
      new Gauge({
        name: 'openpis_payments_pending_at_bank_oldest_age_seconds',
        help: 'Age of the oldest payment pending at the bank (0 when none)',
        registers: [this.registry],
        async collect() {
          const { oldestCreatedAt } = await bankPending.overdue();
          this.set(oldestCreatedAt === null ? 0 : Math.max(0, (Date.now() - Date.parse(oldestCreatedAt)) / 1000));
        },
      });
    }
  }

  recordWebhookAttempt(result: DeliveryResult): void {
    this.webhookAttempts.inc({ outcome: result.outcome });
    this.webhookLatency.observe({ outcome: result.outcome }, result.latencyMs / 1000);
  }

  /** Our certificates towards the banks, with their validity now (set at start by {@link watchBankCertificates}). */
  private bankCertificateReports: () => readonly CertificateReport[] = () => [];

  /** Days left on each of our certificates towards the banks, read when scraped (negative once expired). */
  readonly bankCertificateDaysLeft = ((reports: () => readonly CertificateReport[]) =>
    new Gauge({
      name: 'openpis_bank_certificate_days_left',
      help: "Whole days until each of our certificates towards the banks expires (negative once expired), by use (and bank, for a bank entry's own)",
      labelNames: ['use', 'subject', 'bank'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const report of reports()) {
          // `bank` only for a bank entry's own certificate (the process's apply to every bank).
          const labels = { use: report.use, subject: report.certificate.subject };
          this.set(report.bank === undefined ? labels : { ...labels, bank: report.bank }, report.daysLeft);
        }
      },
    }))(() => this.bankCertificateReports());

  /** Where the certificate gauge reads (alert when it falls below CERTIFICATE_EXPIRY_WARNING_DAYS). */
  watchBankCertificates(reports: () => readonly CertificateReport[]): void {
    this.bankCertificateReports = reports;
  }
}
