/** What a step tells the engine to do next. */
export type StepResult =
  /** The run is at a status the engine continues from without the payer. */
  | { readonly kind: 'continue' }
  /** The payer must act on our page for the run's status (or the flow left the payer's hands: execution, final). */
  | { readonly kind: 'stop' }
  /** Send the payer's browser to the bank. */
  | { readonly kind: 'redirect'; readonly url: string }
  /** Nothing definite: the bank could not be reached. The payer is told and may try again; no status is recorded for the failed call. */
  | { readonly kind: 'retry'; readonly notice: 'bankUnavailable' }
  /** The payer's input was not usable: show the page again with these messages (no status recorded). */
  | { readonly kind: 'invalid'; readonly errors: readonly InputError[] };

/** A message key of the hosted pages' catalogues, for one form field (or the whole form). */
export interface InputError {
  readonly field: 'loginId' | 'password' | 'iban' | 'providerId' | 'accountIban' | 'methodId' | 'otp' | 'form';
  readonly message: 'required' | 'invalidIban' | 'tooLong' | 'chooseOne' | 'wrongCode' | 'otpFormat';
}

export const CONTINUE: StepResult = { kind: 'continue' };
export const STOP: StepResult = { kind: 'stop' };
export const BANK_UNAVAILABLE: StepResult = { kind: 'retry', notice: 'bankUnavailable' };
