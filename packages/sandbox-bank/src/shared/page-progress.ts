/**
 * Where a payer stands on a bank's pages, kept the same way by both standards' state (a Berlin Group
 * authorisation, a UK authorisation session): the current step and a notice shown once on the next render. Each
 * state module owns one keeper (`state.pages`) and hands out only the records it created.
 */
import { writable } from './writable.js';

export interface PageProgress<Step extends string> {
  readonly step: Step;
  readonly notice: string | undefined;
}

/** `Movable`: the steps a page may move to by itself (ending the pages is the state's own business). */
export class PageProgressKeeper<Step extends string, Movable extends Step = Step> {
  moveTo(progress: PageProgress<Step>, step: Movable): void {
    writable(progress).step = step;
  }

  /** Shows a message on the next render of the page (wrong password, …). */
  setNotice(progress: PageProgress<Step>, notice: string): void {
    writable(progress).notice = notice;
  }

  /** The pending message, shown once: reading it clears it. */
  takeNotice(progress: PageProgress<Step>): string | undefined {
    const { notice } = progress;
    writable(progress).notice = undefined;
    return notice;
  }
}
