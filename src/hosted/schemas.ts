/**
 * What the payer's pages accept, as schemas: a request outside them never reaches a handler; the scope's error
 * handler answers it with the payer's error page (src/hosted/error-handler.ts). The patterns are the shapes of the
 * values we hand out (flow tokens, payment ids, action names, asset names); whether one names something is the
 * handler's to find out, with the same answer.
 *
 * A query or form is read leniently: its values are text, a repeated one a list of texts (as the parsers give
 * them); a value the page does not use, or uses only when short enough, is ignored rather than refused, so a query
 * the page was not built for (a bank's answer, a shop's tracking parameters) still shows the page.
 */
import { Type } from 'typebox';

/** The flow token of the payer's link: 256 random bits, base64url (src/flow/). */
export const FLOW_TOKEN_PATTERN = '^[A-Za-z0-9_-]{43}$';
/** A payment id: a UUID as we write them (lower case). */
export const PAYMENT_ID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
/** A step's action name (the registry of steps decides which exist, src/hosted/payer-steps.ts). */
export const ACTION_NAME_PATTERN = '^[a-z][a-z-]{0,31}$';

/** One query or form parameter as the parsers give it: text, or a list of texts when repeated. */
const ParameterText = Type.Union([Type.String(), Type.Array(Type.String())]);

/** A query the route does not read: any parameters, ignored. */
export const UnreadQuery = Type.Record(Type.String(), ParameterText);

/** The query of a page in the payer's language: `lang` picks one (an unknown or repeated one is ignored). */
export const LanguageQuery = Type.Object({ lang: Type.Optional(ParameterText) }, { additionalProperties: ParameterText });

/** The query of the payer's current page: its language and the bank list's filters (`country`, search `q`). */
export const PayerPageQuery = Type.Object(
  { lang: Type.Optional(ParameterText), country: Type.Optional(ParameterText), q: Type.Optional(ParameterText) },
  { additionalProperties: ParameterText },
);

/**
 * A bank's answer in the query: whatever it sends (OAuth's `code` and `state`, an error, our `result` marker);
 * the connector reads what its standard defines.
 */
export const BankAnswerQuery = UnreadQuery;

/**
 * A posted form by field name: a form of our pages (`csrf` and the step's fields) or a bank's answer posted as a form
 * (`response_mode=form_post`). A field that is not text reads as missing; no body at all as an empty form.
 */
export const PostedForm = Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]);

export const FlowTokenParams = Type.Object({ flowToken: Type.String({ pattern: FLOW_TOKEN_PATTERN }) });

export const StepActionParams = Type.Object({
  flowToken: Type.String({ pattern: FLOW_TOKEN_PATTERN }),
  action: Type.String({ pattern: ACTION_NAME_PATTERN }),
});

/** Our per-payment return address: the payment and the single-use secret we gave the bank with it. */
export const PaymentReturnParams = Type.Object({ paymentId: Type.String({ pattern: PAYMENT_ID_PATTERN }), secret: Type.String() });

/** A brand colour's stylesheet: the colour and the stylesheet's version are in the name (src/hosted/layout/styles.ts). */
export const BrandStylesheetParams = Type.Object({ file: Type.String({ pattern: '^brand-[0-9a-f]{6}-[A-Za-z0-9_-]{8}[.]css$' }) });

/** A client's logo: the SHA-256 of the PNG we re-encoded. */
export const LogoParams = Type.Object({ file: Type.String({ pattern: '^[0-9a-f]{64}[.]png$' }) });
