import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FieldDefinition } from '../src/forms/field-schema.ts';
import { cleanText, detectLanguage, detectorInput, detectSubmissionLanguage, submissionText } from '../src/pipeline/language.ts';

const SENTENCES: Record<string, string> = {
  en: 'Hello, I would like to know whether your company can deliver two hundred chairs to our office before the end of next month.',
  de: 'Guten Tag, ich möchte wissen, ob Ihre Firma bis Ende nächsten Monats zweihundert Stühle in unser Büro liefern kann.',
  fr: "Bonjour, je voudrais savoir si votre entreprise peut livrer deux cents chaises à notre bureau avant la fin du mois prochain.",
  es: 'Hola, me gustaría saber si su empresa puede entregar doscientas sillas en nuestra oficina antes de finales del mes que viene.',
  it: 'Buongiorno, vorrei sapere se la vostra azienda può consegnare duecento sedie al nostro ufficio entro la fine del mese prossimo.',
  pt: 'Olá, gostaria de saber se a vossa empresa consegue entregar duzentas cadeiras no nosso escritório até ao final do próximo mês.',
  nl: 'Goedendag, ik wil graag weten of uw bedrijf vóór het einde van volgende maand tweehonderd stoelen kan leveren aan ons kantoor.',
  ru: 'Здравствуйте, я хотел бы узнать, может ли ваша компания доставить двести стульев в наш офис до конца следующего месяца.',
  ja: 'こんにちは。来月末までにオフィスへ椅子を二百脚届けていただけるかどうか知りたいです。見積もりを送っていただけますか。',
  zh: '您好，我想知道贵公司能否在下个月底之前把两百把椅子送到我们的办公室。请给我发一份报价单，谢谢。',
  ar: 'مرحبا، أود أن أعرف ما إذا كانت شركتكم تستطيع توصيل مئتي كرسي إلى مكتبنا قبل نهاية الشهر القادم.',
};

const field = (name: string, type: FieldDefinition['type'], rules: FieldDefinition['rules'] = []): FieldDefinition => ({ name, type, required: false, rules });

describe('detectLanguage', () => {
  for (const [language, sentence] of Object.entries(SENTENCES)) {
    it(`recognises ${language}`, () => assert.equal(detectLanguage(sentence), language));
  }

  it('recognises short but complete messages', () => {
    assert.equal(detectLanguage('Merci beaucoup pour votre aide'), 'fr');
    assert.equal(detectLanguage('Yes please call me back'), 'en');
    assert.equal(detectLanguage('谢谢你的帮助'), 'zh');
  });

  it('reads past URLs, email addresses and numbers', () => {
    assert.equal(detectLanguage('Bitte rufen Sie mich unter +49 30 1234567 an oder schreiben Sie an ada@example.de, danke!'), 'de');
    assert.equal(detectLanguage('Mi pedido 4711-AB no ha llegado todavía, ¿pueden revisarlo? https://shop.example.com/orders/4711'), 'es');
  });

  it('says nothing about text too short or without words', () => {
    for (const text of ['', '   ', 'hi', 'ok ok', 'Vielen Dank', 'Ada Lovelace', '12345 67890', '2024-05-01', '+1 (555) 010-9999',
      'https://example.com/some/long/path?query=1', 'www.example.org', 'ada@example.com', '!!! ??? ...', '谢谢', '🙂🙂🙂']) {
      assert.equal(detectLanguage(text), null, JSON.stringify(text));
    }
  });

  it('says nothing when the detector is unsure', () => {
    for (const text of ['asdf qwer zxcv', 'xyz abc def ghi', 'ok ok ok ok ok', 'test test test', 'Lorem ipsum dolor sit amet']) {
      assert.equal(detectLanguage(text), null, text);
    }
  });
});

describe('submissionText', () => {
  const fields = [
    field('name', 'string'),
    field('email', 'email'),
    field('age', 'number'),
    field('subscribe', 'boolean'),
    field('start', 'date'),
    field('message', 'string'),
    field('website', 'string'),
    field('phone', 'string'),
    field('reference', 'string'),
    field('when', 'string'),
    field('contact', 'string'),
    field('blank', 'string'),
    field('trap', 'string', [{ op: 'honeypot' }]),
    field('missing', 'string'),
  ];
  const data = {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    age: 36,
    subscribe: true,
    start: '2026-01-31',
    message: 'Could you send me a quote for two hundred chairs?',
    website: 'https://ada.example.com/portfolio',
    phone: '+44 20 7946 0958 ext. 12',
    reference: '4711.5',
    when: '2026-01-31T10:30:00Z',
    contact: 'mailto:ada@example.com',
    blank: '   ',
    trap: 'Buy cheap watches now, best prices online',
    undeclared: 'A value for a field the schema does not have',
  };

  it('keeps the prose of string fields only', () => {
    assert.deepEqual(submissionText(data, fields), { name: 'Ada Lovelace', message: 'Could you send me a quote for two hundred chairs?' });
  });

  it('skips bare domains, dates and numbers written into string fields', () => {
    const strings = ['example.org/contact', '31/01/2026', '1,250.00', '1e3', '(030) 123-456'].map((value, index) => [`f${index}`, value]);
    assert.deepEqual(submissionText(Object.fromEntries(strings), strings.map(([name]) => field(name as string, 'string'))), {});
  });

  it('keeps a long value as prose, whatever it looks like, without trying the whole-value patterns on it', () => {
    const long = `a@${'a.'.repeat(32_000)} x`;
    assert.deepEqual(Object.keys(submissionText({ message: long }, fields)), ['message']);
  });

  it('keeps text that mentions numbers or links', () => {
    const value = 'See https://example.com for order 4711';
    assert.deepEqual(submissionText({ note: value }, [field('note', 'string')]), { note: value });
  });
});

describe('detectSubmissionLanguage', () => {
  it('detects on the prose fields together', () => {
    const fields = [field('name', 'string'), field('email', 'email'), field('message', 'string'), field('company', 'string')];
    const data = { name: 'Jean Dupont', email: 'jean@example.fr', message: SENTENCES.fr, company: 'Dupont et Fils' };
    assert.equal(detectSubmissionLanguage(data, fields), 'fr');
  });

  it('is null without prose', () => {
    const fields = [field('email', 'email'), field('site', 'string'), field('trap', 'string', [{ op: 'honeypot' }])];
    assert.equal(detectSubmissionLanguage({ email: 'a@example.com', site: 'https://example.com', trap: SENTENCES.de }, fields), null);
    assert.equal(detectSubmissionLanguage({}, fields), null);
  });
});

describe('detectorInput', () => {
  // Long texts mixing prose with URLs, addresses, numbers and every kind of whitespace, some mostly noise.
  const pieces = [...Object.values(SENTENCES), 'https://example.com/a/b?c=1', 'www.example.org', 'ada@example.com', 'order 4711-AB', '12345',
    '\n\n', '\t', '\u00a0', '  ', 'x@y.z', '€ 1,250.00', 'mailto:sam@example.de'];
  let seed = 7;
  const next = () => (seed = (seed * 48271) % 2147483647);
  const texts = Array.from({ length: 300 }, (_, i) => {
    const noisy = i % 3 === 0;
    let text = '';
    while (text.length < 900 + (next() % 1600)) {
      const piece = noisy && next() % 2 === 0 ? (pieces[11 + (next() % 10)] ?? 'https://example.com/x') : (pieces[next() % pieces.length] as string);
      text += piece + (next() % 4 === 0 ? '\n' : ' ');
    }
    return text;
  });

  it('gives eld what cleaning the whole 2,000-character window gives, as far as eld reads (1,000 characters)', () => {
    for (const text of texts) {
      const whole = cleanText(text.slice(0, 2000));
      const input = detectorInput(text);
      if (input === null) {
        assert.equal(detectorInput(whole), null);
        continue;
      }
      assert.equal(input.slice(0, 1000), whole.slice(0, 1000));
      assert.ok(input.length >= Math.min(1000, whole.length));
    }
  });
});
