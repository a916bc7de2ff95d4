/**
 * A client's branding as `openpis clients` shows it, and the logo it is given: read from a file, or fetched once
 * from an https address.
 */
import { readFile } from 'node:fs/promises';
import { clientLogoPath, type ClientBranding } from '../branding/client-branding.js';
import { buttonColours, describeButtonColours } from '../branding/colour.js';
import { LogoError, MAX_LOGO_FILE_BYTES } from '../branding/logo.js';
import { payerLinkProblem } from '../config/config.js';

/** The parts of the branding `--clear` can remove, as the options name them. */
export type ClearableBrandingPart = 'display-name' | 'logo' | 'brand-colour' | 'support-url';

type BrandingPart = 'displayName' | 'logo' | 'brandColour' | 'supportUrl';

/** The option that sets a part: `display-name` → `displayName`. */
export function camelCase(part: ClearableBrandingPart): BrandingPart {
  return part.replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase()) as BrandingPart;
}

/** Branding as the CLI shows it: every part present (null when unset), the logo's URL path and the button colours. */
export function brandingView(branding: ClientBranding | undefined) {
  const colours = branding?.brandColour === undefined ? undefined : buttonColours(branding.brandColour);
  return {
    displayName: branding?.displayName ?? null,
    brandColour: branding?.brandColour ?? null,
    buttonText: colours?.text ?? null,
    supportUrl: branding?.supportUrl ?? null,
    logo:
      branding?.logo === undefined
        ? null
        : { path: clientLogoPath(branding.logo.sha256), width: branding.logo.width, height: branding.logo.height },
    colourNote: colours === undefined ? null : describeButtonColours(colours),
  };
}

export function brandingLines(view: ReturnType<typeof brandingView>): string[] {
  return [
    `  display name:  ${view.displayName ?? "(not set: payers see the payment's recipient name)"}`,
    `  logo:          ${view.logo === null ? '(not set)' : `${view.logo.width}×${view.logo.height} at ${view.logo.path}`}`,
    `  brand colour:  ${view.colourNote ?? '(not set: the standard colours)'}`,
    `  support URL:   ${view.supportUrl ?? '(not set)'}`,
  ];
}

export async function readLogoFile(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    throw new LogoError(`the logo file ${path} cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Fetches a referenced logo once, at configuration time (payer pages never reach out): bounded in time and size. */
export async function fetchLogo(url: string): Promise<Buffer> {
  const problem = payerLinkProblem(url);
  if (problem !== undefined) throw new LogoError(`--logo-url ${problem}`);
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(15_000), redirect: 'follow' });
  } catch (error) {
    throw new LogoError(`the logo could not be fetched from ${url}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!response.ok) throw new LogoError(`the logo could not be fetched from ${url}: HTTP ${response.status}`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += (chunk as Uint8Array).byteLength;
    if (size > MAX_LOGO_FILE_BYTES) {
      await response.body?.cancel();
      throw new LogoError(`the logo at ${url} is larger than ${MAX_LOGO_FILE_BYTES} bytes`);
    }
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks);
}
