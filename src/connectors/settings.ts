/**
 * The catalogue's `connector` settings of a bank: a union keyed by `standard`, one member per banking standard. The
 * catalogue validates them with this schema; only the connector of that standard reads what is inside.
 */
import { Type, type Static } from 'typebox';
import { BerlinGroupSettingsSchema } from './berlin-group/settings.js';
import { UkOpenBankingSettingsSchema } from './uk-open-banking/settings.js';

export const ConnectorSettingsSchema = Type.Union([BerlinGroupSettingsSchema, UkOpenBankingSettingsSchema]);

export type ConnectorSettings = Static<typeof ConnectorSettingsSchema>;
export type Standard = ConnectorSettings['standard'];
