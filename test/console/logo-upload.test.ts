/**
 * Uploading a client's logo on the console's client page (a multipart form): the file goes through the logo
 * pipeline (src/branding/logo.ts) and is served at its hashed URL; a refused file (SVG, too large, not an image)
 * answers the page with the pipeline's message and changes nothing; a wrong CSRF token and a member are refused.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { MAX_LOGO_FILE_BYTES } from '../../src/branding/logo.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startTestApp, type TestApp, type TestClient } from '../helpers/test-app.js';
import { type ConsoleBrowser, signedInOperatorAndMember } from './console-http.js';

const [sqlite] = await testDatabaseKinds();

const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="40"><script>alert(1)</script></svg>');

describe('console: uploading a client logo', () => {
  let app: TestApp;
  let acme: TestClient;
  let operator: ConsoleBrowser;
  let member: ConsoleBrowser;

  const storedLogo = async (): Promise<string | null> =>
    (await app.database.db.selectFrom('clients').select('logo_sha256').where('id', '=', acme.clientId).executeTakeFirstOrThrow())
      .logo_sha256;
  const logoAudits = async (): Promise<unknown[]> =>
    (
      await app.database.db
        .selectFrom('audit_log')
        .select(['action', 'details'])
        .where('client_id', '=', acme.clientId)
        .where('action', '=', 'client.branding-changed')
        .execute()
    ).map((row) => (typeof row.details === 'string' ? (JSON.parse(row.details) as unknown) : row.details));
  const uploadAs = async (browser: ConsoleBrowser, bytes: Uint8Array, name: string, type: string, fields: Record<string, string> = {}) => {
    await browser.get(`/console/clients/${acme.clientId}`);
    return browser.upload(`/console/clients/${acme.clientId}/logo`, fields, { logo: { bytes, name, type } });
  };

  before(async () => {
    if (sqlite === undefined) throw new Error('no database');
    app = await startTestApp(sqlite);
    acme = await app.createClient({ name: 'Acme Shop' });
    ({ operator, member } = await signedInOperatorAndMember(app, acme.clientId));
  });
  after(async () => {
    await app?.close();
  });

  it('offers the upload form to operators only', async () => {
    assert.match(
      (await operator.get(`/console/clients/${acme.clientId}`)).html,
      /enctype="multipart\/form-data"[^>]*>|action="\/console\/clients\/[^"]+\/logo" enctype="multipart\/form-data"/,
    );
    assert.doesNotMatch((await member.get(`/console/clients/${acme.clientId}`)).html, /type="file"/);
  });

  it('refuses an SVG, a file over the limit and a file that is no image with the pipeline’s message, storing nothing', async () => {
    const svg = await uploadAs(operator, SVG, 'logo.svg', 'image/svg+xml');
    assert.equal(svg.status, 400);
    assert.match(svg.html, /SVG logos are not taken/);
    const tooLarge = Buffer.alloc(MAX_LOGO_FILE_BYTES + 200_000, 0);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(tooLarge);
    const large = await uploadAs(operator, tooLarge, 'huge.png', 'image/png');
    assert.equal(large.status, 400);
    assert.match(large.html, new RegExp(`at most ${MAX_LOGO_FILE_BYTES} are taken`));
    const text = await uploadAs(operator, Buffer.from('hello, not a picture'), 'logo.png', 'image/png');
    assert.equal(text.status, 400);
    assert.match(text.html, /must be a PNG, JPEG or WebP image/);
    assert.equal(await storedLogo(), null);
    assert.deepEqual(await logoAudits(), []);
  });

  it('refuses an upload without the CSRF token, and a member’s upload', async () => {
    const png = await sharp({ create: { width: 200, height: 100, channels: 4, background: '#0a5c36' } })
      .png()
      .toBuffer();
    const forged = await uploadAs(operator, png, 'logo.png', 'image/png', { _csrf: 'forged' });
    assert.equal(forged.status, 403);
    const byMember = await uploadAs(member, png, 'logo.png', 'image/png');
    assert.equal(byMember.status, 404);
    assert.equal(await storedLogo(), null);
  });

  it('turns away a signed-out or barred upload before reading its body', async () => {
    // A body the multipart parser cannot read: answered by who is asking, not by the parser, so no one outside
    // the console can make the server parse (and hold in memory) an upload.
    const broken = { 'content-type': 'multipart/form-data; boundary=cut', origin: app.baseUrl };
    const body = '--cut\r\nContent-Disposition: form-data; name="logo"; filename="a.png"\r\n\r\nno end';
    const path = `/console/clients/${acme.clientId}/logo`;
    const signedOut = await fetch(`${app.baseUrl}${path}`, { method: 'POST', headers: broken, body, redirect: 'manual' });
    assert.equal(signedOut.status, 303);
    assert.equal(signedOut.headers.get('location'), '/console/sign-in');
    const byMember = await member.send(path, { method: 'POST', headers: broken, body });
    assert.equal(byMember.status, 404);
    const crossSite = await operator.send(path, { method: 'POST', headers: { ...broken, origin: 'https://elsewhere.example' }, body });
    assert.equal(crossSite.status, 403);
    // An operator's upload that did not arrive whole: the sender's mistake, said on a page.
    const cutOff = await operator.send(path, { method: 'POST', headers: broken, body });
    assert.equal(cutOff.status, 400);
    assert.match(cutOff.html, /The upload could not be read/);
    assert.equal(await storedLogo(), null);
  });

  it('stores a real PNG through the pipeline, serves it at its hashed URL and audits the change', async () => {
    const png = await sharp({ create: { width: 960, height: 200, channels: 4, background: '#0a5c36' } })
      .png()
      .toBuffer();
    const uploaded = await uploadAs(operator, png, 'logo.png', 'image/png');
    assert.equal(uploaded.status, 303);
    assert.equal(uploaded.location, `/console/clients/${acme.clientId}?done=logo`);
    const sha256 = await storedLogo();
    assert.match(sha256 ?? '', /^[0-9a-f]{64}$/);
    const detail = await operator.get(`/console/clients/${acme.clientId}?done=logo`);
    assert.match(detail.html, /Logo saved/);
    assert.match(detail.html, new RegExp(`<img src="/pay/assets/logos/${sha256}\\.png"[^>]* width="480" height="100"`));
    const served = await fetch(`${app.baseUrl}/pay/assets/logos/${sha256}.png`);
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('content-type'), 'image/png');
    const bytes = Buffer.from(await served.arrayBuffer());
    assert.equal(createHash('sha256').update(bytes).digest('hex'), sha256);
    const metadata = await sharp(bytes).metadata();
    assert.deepEqual([metadata.format, metadata.width, metadata.height], ['png', 480, 100]);
    assert.deepEqual(await logoAudits(), [{ changed: ['logo'], logoSha256: sha256 }]);
  });
});
