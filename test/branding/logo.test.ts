/**
 * The logo pipeline: real PNG, JPEG and WebP files are taken, sized into the box and re-encoded to a PNG of ours;
 * SVG, other formats, garbage, corrupt files, too many bytes and too many pixels are refused with a clear reason.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { LOGO_BOX, LogoError, MAX_LOGO_FILE_BYTES, processLogo } from '../../src/branding/logo.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function picture(width: number, height: number) {
  return sharp({ create: { width, height, channels: 4, background: { r: 10, g: 170, b: 85, alpha: 1 } } });
}

describe('logo pipeline', () => {
  it('takes a PNG, fits it into the box and writes a PNG of its own (metadata dropped)', async () => {
    const input = await picture(1200, 300)
      .withMetadata({ exif: { IFD0: { Copyright: 'upload-marker-1234' } } })
      .png()
      .toBuffer();
    const logo = await processLogo(input);
    assert.ok(logo.png.subarray(0, 8).equals(PNG_SIGNATURE));
    assert.ok(!logo.png.equals(input));
    assert.deepEqual([logo.width, logo.height], [LOGO_BOX.width, 120]);
    const read = await sharp(logo.png).metadata();
    assert.deepEqual([read.format, read.width, read.height, read.exif], ['png', logo.width, logo.height, undefined]);
    assert.ok(!logo.png.includes('upload-marker-1234'));
    assert.match(logo.sha256, /^[0-9a-f]{64}$/);
  });

  it('takes a JPEG and a WebP, re-encoded to PNG; a small picture is not enlarged', async () => {
    const jpeg = await processLogo(await picture(200, 400).jpeg().toBuffer());
    assert.ok(jpeg.png.subarray(0, 8).equals(PNG_SIGNATURE));
    assert.deepEqual([jpeg.width, jpeg.height], [80, LOGO_BOX.height]);
    const webp = await processLogo(await picture(64, 32).webp().toBuffer());
    assert.ok(webp.png.subarray(0, 8).equals(PNG_SIGNATURE));
    assert.deepEqual([webp.width, webp.height], [64, 32]);
  });

  it('refuses SVG (it can carry script), GIF and garbage before any decoder sees them', async () => {
    const svg = Buffer.from(
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
    );
    await assert.rejects(processLogo(svg), (error: unknown) => error instanceof LogoError && /SVG logos are not taken/.test(error.message));
    const gif = await picture(40, 40).gif().toBuffer();
    await assert.rejects(processLogo(gif), /must be a PNG, JPEG or WebP/);
    await assert.rejects(processLogo(Buffer.from('definitely not an image')), /must be a PNG, JPEG or WebP/);
    await assert.rejects(processLogo(Buffer.alloc(0)), /empty/);
  });

  it('refuses a corrupt file, a file whose content is not what its first bytes say, and a tiny picture', async () => {
    const png = await picture(300, 100).png().toBuffer();
    await assert.rejects(processLogo(png.subarray(0, 60)), LogoError);
    const jpegAsPng = Buffer.concat([PNG_SIGNATURE, (await picture(300, 100).jpeg().toBuffer()).subarray(8)]);
    await assert.rejects(processLogo(jpegAsPng), LogoError);
    await assert.rejects(processLogo(await picture(8, 8).png().toBuffer()), /at least 16×16/);
  });

  it('refuses too many bytes and too many pixels', async () => {
    const tooBig = Buffer.concat([PNG_SIGNATURE, Buffer.alloc(MAX_LOGO_FILE_BYTES)]);
    await assert.rejects(processLogo(tooBig), /at most 2097152 are taken/);
    // A few kilobytes that unpack to 36 megapixels: a decompression bomb in small.
    const bomb = await sharp({ create: { width: 6000, height: 6000, channels: 3, background: '#ffffff' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    assert.ok(bomb.byteLength < MAX_LOGO_FILE_BYTES);
    await assert.rejects(processLogo(bomb), /pixels/);
  });
});
