/**
 * A merchant's brand colour on our pages: parsed, and paired with the button text colour that keeps WCAG AA
 * contrast. Contrast follows WCAG 2.2's definitions (relative luminance of sRGB, ratio (L1 + 0.05) / (L2 + 0.05)):
 * a few lines of arithmetic, kept here rather than in a dependency.
 */

/** WCAG AA for normal text (the button label). */
export const TEXT_CONTRAST_MINIMUM = 4.5;
/** WCAG 1.4.11: a button's edge against the page. Below it the button gets an outline in our own grey. */
export const EDGE_CONTRAST_MINIMUM = 3;

const WHITE = '#ffffff';
const BLACK = '#000000';
/** The card the buttons sit on (src/hosted/layout/styles.ts). */
export const PAGE_BACKGROUND = WHITE;

export class BrandColourError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BrandColourError';
  }
}

/** `#0a5` or `#00aa55` (any case) → `#00aa55`; anything else is refused. */
export function parseBrandColour(input: string): string {
  const value = input.trim().toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(value);
  if (short !== null) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`;
  if (/^#[0-9a-f]{6}$/.test(value)) return value;
  throw new BrandColourError(`the brand colour must be a hex colour such as #0a5 or #00aa55 (got "${input}")`);
}

function channel(value: number): number {
  const srgb = value / 255;
  return srgb <= 0.04045 ? srgb / 12.92 : ((srgb + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance of a `#rrggbb` colour. */
export function relativeLuminance(colour: string): number {
  const rgb = [1, 3, 5].map((start) => parseInt(colour.slice(start, start + 2), 16));
  const [r = 0, g = 0, b = 0] = rgb.map(channel);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** How a primary button looks in a brand colour. */
export interface ButtonColours {
  readonly background: string;
  /** White where it reaches AA on the colour, else black (one of the two always does: at least 4.58:1). */
  readonly text: string;
  /** The button's edge against the white card is too faint (a pale colour): it gets a visible outline. */
  readonly outlined: boolean;
}

export function buttonColours(brandColour: string): ButtonColours {
  const background = parseBrandColour(brandColour);
  const text = contrastRatio(background, WHITE) >= TEXT_CONTRAST_MINIMUM ? WHITE : BLACK;
  return { background, text, outlined: contrastRatio(background, PAGE_BACKGROUND) < EDGE_CONTRAST_MINIMUM };
}

/** What the operator is told when a colour is set: the text colour we chose, and any outline. */
export function describeButtonColours(colours: ButtonColours): string {
  const text = colours.text === WHITE ? 'white' : 'black';
  const ratio = contrastRatio(colours.background, colours.text).toFixed(1);
  return `buttons in ${colours.background} with ${text} text (contrast ${ratio}:1)${colours.outlined ? '; the colour is pale against the white page, so buttons get a grey outline' : ''}`;
}
