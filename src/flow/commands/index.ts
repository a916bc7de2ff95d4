/**
 * The payer's actions on our pages as flow commands, one file each: a command takes the action's input as the page
 * read it from the form (strings, possibly absent), validates it, and runs it on the engine under the payment's
 * lease (`FlowEngine.perform`), in the statuses the step table says its page is shown in. The hosted routes only
 * parse the request and call a command (src/hosted/<step>/step.ts); nothing of the flow is decided there.
 * docs/architecture.md, "The flow engine", lists them.
 */
export { cancel } from './cancel.js';
export { chooseAccount, type ChooseAccountInput } from './choose-account.js';
export { chooseBank, type ChooseBankInput, type ChooseBankOutcome } from './choose-bank.js';
export { chooseMethod, type ChooseMethodInput } from './choose-method.js';
export { continueFlow } from './continue-flow.js';
export { enterCode, type EnterCodeInput } from './enter-code.js';
export { giveFollowupData, type FollowupDataInput } from './give-followup-data.js';
export { goBack } from './go-back.js';
export { logIn, type LogInInput } from './log-in.js';
