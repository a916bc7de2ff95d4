/**
 * A client's branding: the display name, logo, brand colour and support link its payers see on our pages. Set by
 * the operator (`openpis clients branding`), every value checked here before it is stored; read by the hosted
 * pages for each payment's client, and the logo served from the database by its hash (src/hosted/assets/routes.ts).
 */
import type { Kysely } from 'kysely';
import { payerLinkProblem } from '../config/config.js';
import { displayTextProblem, normalisedDisplayText } from '../domain/display-text.js';
import type { Database } from '../storage/schema.js';
import { BrandColourError, parseBrandColour } from './colour.js';
import type { ProcessedLogo } from './logo.js';

export const MAX_DISPLAY_NAME_LENGTH = 80;

export interface StoredLogo {
  /** SHA-256 (hex) of the PNG: its URL carries it. */
  readonly sha256: string;
  readonly width: number;
  readonly height: number;
}

export interface ClientBranding {
  readonly clientId: string;
  readonly displayName: string | undefined;
  /** `#rrggbb`. */
  readonly brandColour: string | undefined;
  readonly supportUrl: string | undefined;
  readonly logo: StoredLogo | undefined;
}

/** What the operator changes: a value sets, `null` clears, absent leaves as it is. */
export interface BrandingChanges {
  readonly displayName?: string | null;
  readonly brandColour?: string | null;
  readonly supportUrl?: string | null;
  /** Already checked and re-encoded by `processLogo`. */
  readonly logo?: ProcessedLogo | null;
}

export class BrandingError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid branding:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'BrandingError';
  }
}

export class BrandingClientNotFoundError extends Error {
  constructor(clientId: string) {
    super(`No client with id ${clientId}`);
    this.name = 'BrandingClientNotFoundError';
  }
}

/** Checks and normalises the text values (the colour to `#rrggbb`); throws a BrandingError with every problem. */
export function checkedBrandingChanges(changes: BrandingChanges): BrandingChanges {
  const problems: string[] = [];
  let { displayName, brandColour, supportUrl } = changes;
  if (typeof displayName === 'string') {
    displayName = normalisedDisplayText(displayName.trim());
    const problem = displayTextProblem(displayName, MAX_DISPLAY_NAME_LENGTH);
    if (problem !== undefined) problems.push(`the display name ${problem}`);
  }
  if (typeof brandColour === 'string') {
    try {
      brandColour = parseBrandColour(brandColour);
    } catch (error) {
      problems.push(error instanceof BrandColourError ? error.message : String(error));
    }
  }
  if (typeof supportUrl === 'string') {
    supportUrl = supportUrl.trim();
    const problem = payerLinkProblem(supportUrl);
    if (problem !== undefined) problems.push(`the support URL ${problem}`);
  }
  if (problems.length > 0) throw new BrandingError(problems);
  return {
    ...changes,
    ...(displayName === undefined ? {} : { displayName }),
    ...(brandColour === undefined ? {} : { brandColour }),
    ...(supportUrl === undefined ? {} : { supportUrl }),
  };
}

type BrandingRow = Pick<
  Database['clients'],
  'id' | 'display_name' | 'brand_colour' | 'support_url' | 'logo_sha256' | 'logo_width' | 'logo_height'
>;

const BRANDING_COLUMNS = ['id', 'display_name', 'brand_colour', 'support_url', 'logo_sha256', 'logo_width', 'logo_height'] as const;

function brandingOf(row: BrandingRow): ClientBranding {
  return {
    clientId: row.id,
    displayName: row.display_name ?? undefined,
    brandColour: row.brand_colour ?? undefined,
    supportUrl: row.support_url ?? undefined,
    logo:
      row.logo_sha256 === null || row.logo_width === null || row.logo_height === null
        ? undefined
        : { sha256: row.logo_sha256, width: row.logo_width, height: row.logo_height },
  };
}

/** Where the hosted pages serve a client's logo: named by its hash, so a new logo gets a new URL (cached for long). */
export function clientLogoPath(sha256: string): string {
  return `/pay/assets/logos/${sha256}.png`;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

export class ClientBrandingStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async get(clientId: string): Promise<ClientBranding | undefined> {
    const row = await this.db.selectFrom('clients').select(BRANDING_COLUMNS).where('id', '=', clientId).executeTakeFirst();
    return row === undefined ? undefined : brandingOf(row);
  }

  async list(): Promise<ClientBranding[]> {
    const rows = await this.db.selectFrom('clients').select(BRANDING_COLUMNS).orderBy('created_at').orderBy('id').execute();
    return rows.map(brandingOf);
  }

  /** Applies checked changes; returns the branding as stored. */
  async update(clientId: string, changes: BrandingChanges): Promise<ClientBranding> {
    const checked = checkedBrandingChanges(changes);
    const { logo } = checked;
    const values = {
      ...(checked.displayName === undefined ? {} : { display_name: checked.displayName }),
      ...(checked.brandColour === undefined ? {} : { brand_colour: checked.brandColour }),
      ...(checked.supportUrl === undefined ? {} : { support_url: checked.supportUrl }),
      ...(logo === undefined
        ? {}
        : logo === null
          ? { logo_sha256: null, logo_png: null, logo_width: null, logo_height: null }
          : { logo_sha256: logo.sha256, logo_png: logo.png.toString('base64'), logo_width: logo.width, logo_height: logo.height }),
    };
    const updated = await this.db
      .updateTable('clients')
      .set({ ...values, updated_at: this.now().toISOString() })
      .where('id', '=', clientId)
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) throw new BrandingClientNotFoundError(clientId);
    const stored = await this.get(clientId);
    if (stored === undefined) throw new BrandingClientNotFoundError(clientId);
    return stored;
  }

  /** The PNG whose SHA-256 is `sha256`, as we stored it; undefined when no client has it. */
  async logoPng(sha256: string): Promise<Buffer | undefined> {
    if (!SHA256_HEX.test(sha256)) return undefined;
    const row = await this.db
      .selectFrom('clients')
      .select('logo_png')
      .where('logo_sha256', '=', sha256)
      .where('logo_png', 'is not', null)
      .executeTakeFirst();
    return row?.logo_png === null || row === undefined ? undefined : Buffer.from(row.logo_png, 'base64');
  }
}
