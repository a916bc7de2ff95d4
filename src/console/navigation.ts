/**
 * The console's navigation: one entry per section, in a fixed order. A section appears once a page module
 * registers it (docs/console.md, "Adding a page"); Banks, Insight and Sandbox have their places here already.
 */
import type { ConsoleUser } from '../people/accounts.js';

export const SECTION_ORDER = ['payments', 'payment-links', 'refunds', 'banks', 'insight', 'sandbox', 'clients', 'people', 'audit'] as const;
export type ConsoleSectionId = (typeof SECTION_ORDER)[number];

export interface ConsoleSection {
  readonly id: ConsoleSectionId;
  readonly label: string;
  /** The section's first page, e.g. `/console/payments`. */
  readonly path: string;
  /** Shown to operators only (members get 404 on its pages, as for anything they may not see). */
  readonly operatorsOnly: boolean;
}

export class ConsoleNavigation {
  private readonly sections = new Map<ConsoleSectionId, ConsoleSection>();

  /**
   * `operatorAlerts`: what every operator must see on every page until it is dealt with (a certificate towards the
   * banks about to expire), read as each page is drawn.
   */
  constructor(private readonly operatorAlerts: () => readonly string[] = () => []) {}

  /** The alerts shown above this user's pages: the operator's to act on, so members see none. */
  alertsFor(user: ConsoleUser): readonly string[] {
    return user.role === 'operator' ? this.operatorAlerts() : [];
  }

  register(section: ConsoleSection): void {
    if (this.sections.has(section.id)) throw new Error(`Console section ${section.id} is registered twice`);
    this.sections.set(section.id, section);
  }

  /** The sections this user may open, in the navigation's order. */
  visibleTo(user: ConsoleUser): ConsoleSection[] {
    return SECTION_ORDER.map((id) => this.sections.get(id)).filter(
      (section): section is ConsoleSection => section !== undefined && (!section.operatorsOnly || user.role === 'operator'),
    );
  }

  /** Where a user lands after signing in: the first section they may open. */
  homeOf(user: ConsoleUser): string {
    return this.visibleTo(user)[0]?.path ?? '/console/account';
  }
}
