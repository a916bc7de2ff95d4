/**
 * Operators' second factor: TOTP (RFC 6238; 30 s, 6 digits, SHA-1, what every authenticator app reads) through
 * otpauth, the enrolment QR code through qrcode as an SVG we put in the page (no image host, no script). A code is
 * accepted once: the time step it matched is stored and a code of that step or an earlier one is refused.
 */
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

const PERIOD_SECONDS = 30;
/** One step either side: a phone clock a little off still works. */
const WINDOW = 1;

export const TOTP_ISSUER = 'openpis console';

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpFor(secretBase32: string, label: string): TOTP {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** The `otpauth://` URI an authenticator app enrols from (shown as text and as a QR code). */
export function totpUri(secretBase32: string, label: string): string {
  return totpFor(secretBase32, label).toString();
}

/** The QR code of the URI as an SVG element (only `<svg>` and `<path>` with presentation attributes). */
export async function qrCodeSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

/**
 * The time step the code belongs to, when it is right for `at` (± one step) and newer than `lastStep`; undefined
 * otherwise (wrong, stale, or already used).
 */
export function acceptedTotpStep(secretBase32: string, code: string, at: Date, lastStep: number | null): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totpFor(secretBase32, 'check').validate({ token: code, timestamp: at.getTime(), window: WINDOW });
  if (delta === null) return undefined;
  const step = Math.floor(at.getTime() / 1000 / PERIOD_SECONDS) + delta;
  return lastStep !== null && step <= lastStep ? undefined : step;
}

/** The code an authenticator shows at `at` (tests and the CLI's check). */
export function totpCode(secretBase32: string, at: Date): string {
  return totpFor(secretBase32, 'code').generate({ timestamp: at.getTime() });
}
