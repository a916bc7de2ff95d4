/**
 * Every type of event openpis writes to a client's event feed and webhooks, with the kind of subject it is about.
 * The feed's `type` filter, the OpenAPI document and docs/webhooks.md list these; a new resource's events are
 * entries here (docs/adr/0012-events-and-jobs-by-subject.md).
 */
import type { SubjectType } from '../domain/lifecycle.js';

export interface EventTypeDefinition {
  readonly subjectType: SubjectType;
  /** What the event says, as the docs say it. */
  readonly description: string;
}

export const EVENT_TYPES = {
  'payment.status.updated': {
    subjectType: 'payment',
    description: 'A payment entered a new status (one event per status record of its history).',
  },
  'payment_link.paid': {
    subjectType: 'payment_link',
    description: "A single-use payment link's payment completed: the link is PAID and takes no more payments.",
  },
  'payment_link.expired': {
    subjectType: 'payment_link',
    description: 'A payment link reached its expiresAt while ACTIVE: it is EXPIRED and takes no more payments.',
  },
  'payment_link.deactivated': {
    subjectType: 'payment_link',
    description: 'The client deactivated a payment link: it is DEACTIVATED and takes no more payments.',
  },
} as const satisfies Readonly<Record<string, EventTypeDefinition>>;

export type EventType = keyof typeof EVENT_TYPES;

export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as readonly EventType[];

export function isEventType(value: string): value is EventType {
  return Object.hasOwn(EVENT_TYPES, value);
}
