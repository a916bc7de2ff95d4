/**
 * A merchant's logo, as the operator hands it in (a file, or an address fetched once by the CLI): checked, sized
 * and re-encoded by sharp (libvips), so the bytes we store and serve are a PNG we wrote ourselves, never the
 * upload. Only PNG, JPEG and WebP are taken: recognised by their signature bytes first and by the decoder's own
 * reading second; SVG (which can carry script) and every other format are refused before any decoder sees them.
 */
import { createHash } from 'node:crypto';
import type { Metadata, OutputInfo } from 'sharp';

/** Largest file taken (before any decoding). */
export const MAX_LOGO_FILE_BYTES = 2 * 1024 * 1024;
/** Largest picture decoded: a guard against decompression bombs (a small file that unpacks to gigabytes). */
export const MAX_LOGO_INPUT_PIXELS = 25_000_000;
/** The box the stored logo fits in: twice the header's display size, for sharp high-density screens. */
export const LOGO_BOX = { width: 480, height: 160 } as const;
const MIN_LOGO_SIDE = 16;

export class LogoError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LogoError';
  }
}

/** A logo as we keep it: our own PNG and its SHA-256, which names it in its URL. */
export interface ProcessedLogo {
  readonly png: Buffer;
  /** SHA-256 (hex) of `png`. */
  readonly sha256: string;
  readonly width: number;
  readonly height: number;
}

type AcceptedFormat = 'png' | 'jpeg' | 'webp';

/** The format the first bytes announce, or undefined for anything we do not take. */
export function sniffLogoFormat(bytes: Uint8Array): AcceptedFormat | undefined {
  const starts = (signature: readonly number[], offset = 0): boolean => signature.every((byte, index) => bytes[offset + index] === byte);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts([0xff, 0xd8, 0xff])) return 'jpeg';
  // RIFF <size> WEBP
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'webp';
  return undefined;
}

export async function processLogo(input: Uint8Array): Promise<ProcessedLogo> {
  // Loaded at the first logo, not with the module: libvips is a large native library, and the CLI and the service
  // import this module for its checks and constants long before (or without ever) decoding a picture.
  const { default: sharp } = await import('sharp');
  if (input.byteLength === 0) throw new LogoError('the logo file is empty');
  if (input.byteLength > MAX_LOGO_FILE_BYTES) {
    throw new LogoError(`the logo file is ${input.byteLength} bytes; at most ${MAX_LOGO_FILE_BYTES} are taken`);
  }
  const sniffed = sniffLogoFormat(input);
  if (sniffed === undefined) {
    const text = Buffer.from(input.subarray(0, 512)).toString('utf8').toLowerCase();
    const svg = text.includes('<svg') || text.includes('<?xml');
    throw new LogoError(
      svg
        ? 'SVG logos are not taken (an SVG can carry script): export the logo as PNG, JPEG or WebP'
        : 'the logo must be a PNG, JPEG or WebP image (the file is none of these)',
    );
  }
  // `failOn: 'error'`: a truncated or corrupt file is refused rather than half drawn; only the first frame is read.
  const options = { limitInputPixels: MAX_LOGO_INPUT_PIXELS, failOn: 'error', animated: false } as const;
  let metadata: Metadata;
  try {
    metadata = await sharp(input, options).metadata();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (/pixel limit/i.test(reason)) throw new LogoError(`the logo has more than ${MAX_LOGO_INPUT_PIXELS} pixels: scale it down first`);
    throw new LogoError(`the logo could not be read as ${sniffed.toUpperCase()}: ${reason}`);
  }
  if (metadata.format !== sniffed) throw new LogoError(`the logo's content is not the ${sniffed.toUpperCase()} its first bytes announce`);
  const { width = 0, height = 0 } = metadata;
  if (width * height > MAX_LOGO_INPUT_PIXELS)
    throw new LogoError(`the logo is ${width}×${height} pixels; at most ${MAX_LOGO_INPUT_PIXELS} pixels are taken`);
  if (width < MIN_LOGO_SIDE || height < MIN_LOGO_SIDE)
    throw new LogoError(`the logo is ${width}×${height} pixels; at least ${MIN_LOGO_SIDE}×${MIN_LOGO_SIDE} are needed`);
  let output: { data: Buffer; info: OutputInfo };
  try {
    output = await sharp(input, options)
      .rotate() // a JPEG's EXIF orientation, applied before the metadata is dropped
      .resize({ width: LOGO_BOX.width, height: LOGO_BOX.height, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .png({ compressionLevel: 9 })
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw new LogoError(`the logo could not be converted: ${error instanceof Error ? error.message : String(error)}`);
  }
  return {
    png: output.data,
    sha256: createHash('sha256').update(output.data).digest('hex'),
    width: output.info.width,
    height: output.info.height,
  };
}
