/** Brand colours: parsed strictly, and the button text colour always keeps WCAG AA contrast on them. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BrandColourError, buttonColours, contrastRatio, parseBrandColour, TEXT_CONTRAST_MINIMUM } from '../../src/branding/colour.js';

describe('brand colour', () => {
  it('takes #rgb and #rrggbb in any case, refuses the rest', () => {
    assert.equal(parseBrandColour('#0a5'), '#00aa55');
    assert.equal(parseBrandColour(' #0B5FFF '), '#0b5fff');
    for (const bad of ['0a5', '#0a', '#0a5f', 'red', '#gggggg', 'rgb(0,0,0)', '#0a5;}body{']) {
      assert.throws(() => parseBrandColour(bad), BrandColourError, bad);
    }
  });

  it('computes WCAG contrast', () => {
    assert.equal(contrastRatio('#ffffff', '#000000'), 21);
    assert.equal(contrastRatio('#777777', '#777777'), 1);
    // The WCAG reference value for #767676 on white is 4.54:1.
    assert.equal(contrastRatio('#767676', '#ffffff').toFixed(2), '4.54');
  });

  it('chooses white or black text, whichever reaches AA, for every colour; pale colours get an outline', () => {
    assert.deepEqual(buttonColours('#1e3a8a'), { background: '#1e3a8a', text: '#ffffff', outlined: false });
    assert.deepEqual(buttonColours('#ffff00'), { background: '#ffff00', text: '#000000', outlined: true });
    assert.equal(buttonColours('#0a5').text, '#000000');
    for (let value = 0; value < 0x1000000; value += 0x010307) {
      const colour = `#${value.toString(16).padStart(6, '0')}`;
      const chosen = buttonColours(colour);
      assert.ok(contrastRatio(chosen.background, chosen.text) >= TEXT_CONTRAST_MINIMUM, colour);
    }
  });
});
