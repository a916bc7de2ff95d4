/** What a step tells the engine to do next. */
export type StepResult =
  /** The run is at a status the engine continues from without the payer. */
  | { readonly kind: 'continue' }
  /** The payer must act on our page for the run's status (or the flow left the payer's hands: execution, final). */
  | { readonly kind: 'stop' }
  /** Send the payer's browser to the bank. */
  | { readonly kind: 'redirect'; readonly url: string }
  /**
   * Nothing definite: the bank could not be reached, or did not take the payer's one-time code. The payer is told
   * and may try again; no status is recorded for the failed call.
   */
  | { readonly kind: 'retry'; readonly notice: Notice }
  /** The payer's input was not usable: show the page again with these messages (no status recorded). */
  | { readonly kind: 'invalid'; readonly errors: readonly InputError[] }
  /**
   * The bank refused the payer's login or one-time code and another attempt is allowed: nothing is recorded but
   * the count of refused attempts (flow state), and the payer's page shows the refusal and the attempts left.
   */
  | { readonly kind: 'refused' };

/** A message shown above the page's form (a message key of the hosted pages' catalogues, `notice.<name>`). */
export type Notice = 'bankUnavailable' | 'codeNotProcessed';

/** A message key of the hosted pages' catalogues, for one form field (or the whole form). */
export interface InputError {
  readonly field: 'loginId' | 'password' | 'iban' | 'providerId' | 'accountIban' | 'methodId' | 'otp' | 'form';
  readonly message: 'required' | 'invalidIban' | 'tooLong' | 'chooseOne' | 'wrongCode' | 'otpFormat' | 'wrongLogin';
  /** After a refusal of the bank: how many attempts the payer has left. */
  readonly attemptsLeft?: number;
}

export const CONTINUE: StepResult = { kind: 'continue' };
export const STOP: StepResult = { kind: 'stop' };
export const REFUSED: StepResult = { kind: 'refused' };
export const BANK_UNAVAILABLE: StepResult = { kind: 'retry', notice: 'bankUnavailable' };
