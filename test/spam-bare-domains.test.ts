// Bare domains ("visit cheap-seo-pros.com"), written without scheme or path to slip past link filters, are links to
// findUrls and so to every link signal; each rule pinned with the near-miss that shares its surface: an e-mail
// address's domain, a price or version number, a file name, an abbreviation, prose that lost a space.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkStandard } from '../src/pipeline/spam/index.ts';
import { findUrls, isBareDomain, removeUrls } from '../src/pipeline/spam/urls.ts';
import { submission } from './spam-signal-assert.ts';

const hosts = (text: string) => findUrls(text).map((url) => url.host);

describe('bare domains as links', () => {
  it('finds a bare domain on a known top-level domain, with its subdomains and country endings', () => {
    assert.deepEqual(hosts('Visit cheap-seo-pros.com for backlinks'), ['cheap-seo-pros.com']);
    assert.deepEqual(hosts('Richiedi ora: prestito-facile.online!'), ['prestito-facile.online']);
    assert.deepEqual(hosts('our site acme-tools.de, or shop.acme.co.uk.'), ['acme-tools.de', 'shop.acme.co.uk']);
    assert.deepEqual(hosts('Acme-Tools.de'), ['acme-tools.de'], 'capitals in the name are still a domain');
    assert.equal(removeUrls('visit cheap-seo-pros.com now'), 'visit   now');
  });

  it('keeps what it found before: schemes, "www." in any case, domains with a path', () => {
    assert.deepEqual(hosts('see https://x.com/a, WWW.EXAMPLE.COM and acme.com/path'), ['x.com', 'example.com', 'acme.com']);
  });

  it('leaves e-mail addresses alone: their domain is not a link', () => {
    for (const text of ['write to jane@acme-tools.de', 'jane.doe@acme.co.uk', 'info.shop@mail.de', 'sales@cheap-seo-pros.com']) {
      assert.deepEqual(hosts(text), [], text);
      assert.equal(removeUrls(text), text, text);
    }
  });

  it('leaves numbers, prices and versions alone', () => {
    for (const text of ['It costs 3.50 or 12.99 EUR', 'upgraded to v1.2 and 2.0.1', 'the 123.com is not a name']) assert.deepEqual(hosts(text), [], text);
  });

  it('leaves file names alone, including extensions that are also top-level domains', () => {
    for (const text of ['attached report.pdf and photo.jpg', 'setup.py, notes.md, archive.zip, clip.mov, build.sh, logo.ai, main.rs']) {
      assert.deepEqual(hosts(text), [], text);
    }
  });

  it('leaves abbreviations and prose that lost a space alone', () => {
    for (const text of ['e.g. this, i.e. that, z.B. jenes, d.h. so', 'I came.It was fine', 'Hi.I need a quote.Can you call', 'an ASP.NET developer', 'cheap.Com']) {
      assert.deepEqual(hosts(text), [], text);
    }
  });

  it('checks hostname syntax and stops at a longer name', () => {
    assert.equal(isBareDomain('acme-tools.de'), true);
    assert.equal(isBareDomain('bad-.com'), false);
    assert.equal(isBareDomain('123.com'), false);
    assert.deepEqual(hosts('acme.community and acme.com.Now'), []);
    assert.deepEqual(hosts('x-bad-.com'), []);
  });

  it('a bare-domain drop is seen by the link signals, its e-mail twin is not', () => {
    const drop = checkStandard(submission('Great article, thanks for sharing! cheap-seo-pros.com'));
    assert.ok(drop.signals.includes('praise_link'), drop.reason);
    assert.ok(drop.signals.includes('stranger_link'), drop.reason);
    const mail = checkStandard(submission('Great article, thanks for sharing! Write to me at cheap-seo-pros@example.com'));
    assert.ok(!mail.signals.includes('praise_link') && !mail.signals.includes('stranger_link'), mail.reason);
  });

  it('a company written as its domain in a name field is a name, the same domain with a scheme is a link there', () => {
    const message = 'Please send a quote for 40 drills to our Leipzig office.';
    const named = checkStandard({ ...submission(message), data: { name: 'Acme-Tools.de', email: 'jan@acme-tools.de', message } });
    assert.ok(!named.signals.includes('field_mismatch'), named.reason);
    const linked = checkStandard({ ...submission(message), data: { name: 'https://acme-tools.de', email: 'jan@acme-tools.de', message } });
    assert.ok(linked.signals.includes('field_mismatch'), linked.reason);
    assert.deepEqual(findUrls('Acme-Tools.de').map((url) => url.bare), [true]);
  });

  it('a customer naming their own site is not a stranger link', () => {
    const verdict = checkStandard({ ...submission('Hello, we are Acme Tools, our site is acme-tools.de. Please send a quote for 40 drills.'), data: { name: 'Jan', email: 'jan@acme-tools.de', message: 'Hello, we are Acme Tools, our site is acme-tools.de. Please send a quote for 40 drills.' } });
    assert.ok(!verdict.signals.includes('stranger_link'), verdict.reason);
    assert.equal(verdict.spam, false, verdict.reason);
  });
});
