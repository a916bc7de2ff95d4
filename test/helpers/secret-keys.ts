/** One key ring for every test app, service process and CLI run of a test process, so they share sealed values. */
import { generateSecretKeysSetting, parseSecretKeys, SecretBox } from '../../src/crypto/secret-box.js';

export const TEST_SECRET_KEYS = generateSecretKeysSetting('test');

export function testSecretBox(): SecretBox {
  return new SecretBox(parseSecretKeys(TEST_SECRET_KEYS));
}
