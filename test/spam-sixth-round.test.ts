// Issue 35's sixth round (docs/spam.md, "Sixth round"): signs that read the same in every language. Two heuristics
// (throwaway_link, messenger_route) and the classifier's features for a link's shape, a messaging app and a percentage,
// each on spam and on the legitimate twin a customer or supplier writes with the same sign; and the Cyrillic crypto
// phrase that `\b` had kept from ever matching.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { checkIntelligent, checkStandard } from '../src/pipeline/spam/index.ts';
import { DEFAULT_MODEL_URL } from '../src/pipeline/spam/classifier.ts';
import { decodeWeights, type SpamModelFile } from '../src/pipeline/spam/model-file.ts';
import { featureBuckets, hashFeature } from '../src/pipeline/spam/text.ts';
import { assertSignal, submission } from './spam-signal-assert.ts';

const has = (text: string, feature: string) => featureBuckets(text).includes(hashFeature(feature));

describe('web-form spam signs, sixth round', () => {
  it('throwaway_link: a link on a throwaway domain fires it; alone, or with a messaging handle, it flags nothing', async () => {
    for (const message of ['Situs slot gacor hari ini, bonus new member 100%. Daftar sekarang di slotkilat77.vip', 'Borse firmate al 70% di sconto: outlet-moda-firmata.shop']) {
      assert.ok(checkStandard(submission(message)).signals.includes('throwaway_link'), message);
    }
    for (const message of ['Our new bakery site is rosesbakery.shop, could you link to it from your suppliers page? WhatsApp me on 07700 900123.', 'Hi, my portfolio is at annakowal.site if you want to see the illustrations I mentioned on the phone.']) {
      const standard = checkStandard(submission(message));
      assert.ok(standard.signals.includes('throwaway_link'), message);
      assert.equal(standard.spam, false, `standard: ${message}: ${standard.reason}`);
      assert.equal((await checkIntelligent(submission(message), null)).spam, false, `intelligent: ${message}`);
    }
    assert.ok(!checkStandard(submission('Our catalogue is at https://buero-grosshandel.de/katalog and https://example.com')).signals.includes('throwaway_link'));
  });

  it('messenger_route: a messaging app as the way to answer and nothing asked; a customer who gives their WhatsApp asks something', async () => {
    await assertSignal('messenger_route', [
      'Chào anh/chị, bên em nhận làm SEO lên top Google, liên hệ Zalo 0909 555 123 để được tư vấn.',
      'Website kurumsal tasarım, 7 günde teslim. Detaylı bilgi için WhatsApp: 0532 555 11 22',
      'Rolex and Omega 1:1 watches, worldwide shipping. Interested? Telegram @luxwatch_store',
    ], [
      'Oi, vocês entregam em Niterói? Me chama no WhatsApp (21) 98812-0000, respondo mais rápido.',
      'Can you send the invoice to my WhatsApp, +44 7700 900214? I lost the e-mail.',
      'Hallo, gilt der Rabatt auch für Vereine? Schreiben Sie mir gern per WhatsApp, 0151 2210 0000.',
    ], /messaging app as the way to answer/);
  });

  it('the classifier reads a link\'s top-level domain, a name with hyphens or digits, a percentage and a messaging app, in any language', () => {
    assert.ok(has('Daftar sekarang di slotkilat88.vip', 't:vip'));
    assert.ok(has('Regístrese: cripto-ganancias.pro', 'u!hyphen'));
    assert.ok(has('Play now: winbet77.club', 'u!digit'));
    assert.ok(!has('Call me on 192.168.0.1 please', 'u!digit'), 'an IP address is ip_link\'s, not a name with digits');
    assert.ok(has('Napi 3% hozam, garantált', 'p:percent'));
    assert.ok(has('微信 lux8891 欢迎咨询', 'p:messenger'));
    assert.ok(!has('Our catalogue is on the website, no link here', 't:com'));
  });

  it('the shipped model learnt them as signs of spam, and its legitimate twins (hyphenated domains, discounts, WhatsApp numbers) stay through', async () => {
    const model = JSON.parse(readFileSync(DEFAULT_MODEL_URL, 'utf8')) as SpamModelFile;
    const weights = decodeWeights(model.weights, 2 ** model.hashBits);
    for (const feature of ['p:messenger', 'u!hyphen', 'p:percent', 'u!digit', 't:xyz']) assert.ok(weights[hashFeature(feature)]! > 0, feature);
    // Issue 35's eighth round: with the seventh set learnt from, the office wholesaler's introduction (a 30 % discount, a
    // hyphenated domain, no name, no address) scores above `intelligent`'s threshold, 2.06 against 1.84 log-odds; it is
    // let through after one "not spam" mark (test/spam-web-form-corrections.test.ts) and named in docs/spam.md. Issue 35's
    // ninth round: with the eighth set learnt from and the link's naming read (`u!named`), it stays through again.
    for (const message of [
      'Hallo, wir sind ein Großhändler für Bürobedarf und bieten Ihnen exklusive Rabatte von bis zu 30 % auf Ihre erste Bestellung. Unser Katalog: https://buero-grosshandel.de/katalog',
      'Hello, I run the bookings for our choir (st-johns-choir-2019.org). Do you give 10% off for 30 tickets? My WhatsApp is +44 7700 900555.',
      'Buongiorno, siamo un forno di Modena (forno-da-gino.it). Portiamo pane fresco ai bar della zona ogni mattina, con uno sconto del 10% il primo mese. Saluti, Gino',
    ]) {
      assert.equal(checkStandard(submission(message)).spam, false, `standard: ${message}`);
      assert.equal((await checkIntelligent(submission(message), null)).spam, false, `intelligent: ${message}`);
    }
  });

  it('spam_phrases: a Cyrillic crypto scheme now matches (`\\b` is ASCII-only); paying with crypto does not', async () => {
    await assertSignal('spam_phrases', ['Инвестируйте в криптовалюту и получайте доход каждый день.', 'Заработок на криптовалюте без вложений.'], [
      'Можно оплатить заказ криптовалютой?', 'Вы принимаете криптовалюту к оплате?',
    ], /crypto scheme/);
  });
});
