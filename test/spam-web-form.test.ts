// The web-form spam signals (outreach templates, domain-name greetings, form blasting, fake support numbers, SEO
// anchor text, link drops), each on its examples and on the near-misses a customer, job seeker or supplier writes
// with the same words; and the hand-written web-form set's legitimate messages of the validation part.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkIntelligent, checkStandard } from '../src/pipeline/spam/index.ts';
import { assertSignal, submission } from './spam-signal-assert.ts';

describe('web-form spam signals', () => {
  it('outreach: "I noticed your website" with a pitch about it, and the bulk opt-out line', async () => {
    await assertSignal('outreach', [
      'Hi, I noticed your website is not on the first page of Google. Can I send you a free audit?',
      'Hello, I came across your site and I think there is a big opportunity for you. Just reply YES and I will send times.',
      'Our team manages Instagram for small businesses from $199/month. If you\'re not interested, just reply with "no thanks".',
      'Guten Tag, ich habe Ihre Website analysiert. Leider ist sie bei Google kaum sichtbar.',
    ], [
      'Hello, I came across your website while looking for a wedding photographer. Are you free on 21 June?',
      'I noticed your website says you open at 9 but the door was locked at 9:30. Is that right?',
      'Hi, we are a packaging manufacturer. I saw on your website that you sell tea. Would you like our catalogue?',
    ], /outreach template/i);
  });

  it('domain_addressee: a greeting to a domain name instead of a person', async () => {
    await assertSignal('domain_addressee', [
      'Hi examplebakery.com Team, are you looking for more customers?', 'To the owner of greenleafdental.com - we help dentists.',
      'Hallo Team von schreinerei-maier.de, kurze Frage.', 'Hola equipo de clinicasol.es, ¿podemos hablar?',
    ], [
      'Hi, I ordered from examplebakery.com last week and the cake was great.', 'Hello team, my email is anna@greenleaf.com, please call back.',
      'Hi, the page examplebakery.com/menu is broken.',
    ], /addressed to a domain name/i);
  });

  it('form_blast: adverts for sending messages through contact forms', async () => {
    await assertSignal('form_blast', [
      'You are reading this message, so your customers can read yours. We send ads to millions of website contact forms.',
      'We deliver your message to 5 million websites contact forms.', 'Sie lesen diese Nachricht – also funktioniert es!',
      'Мы предлагаем рассылку по формам обратной связи сайтов.',
    ], [
      'I filled in your contact form twice last week and nobody replied. Is this one reaching you?',
      'Your contact form on the mobile site does not show the send button.',
    ], /mass contact-form messages/i);
  });

  it('support_number: a brand\'s support line advertised with a phone number', async () => {
    await assertSignal('support_number', [
      'Call Norton Antivirus customer support number +1-888-555-0197 toll free.', 'QuickBooks Support Phone Number 1-844-555-0165 for payroll errors.',
      'Cash App customer service number 1(877)555-0130. Call now, open 24 hours.', 'Rufen Sie den Fritzbox Kundendienst unter der Hotline +49 800 555 0199 an.',
    ], [
      'I called PayPal customer service on 0800 123 4567 and they said the refund is on your side. Can you check?',
      'My Norton antivirus blocks your website. Please call me back on 07700 900123.',
      'Your support number on the contact page, 0161 496 0732, just rings out.',
    ], /support line with a phone number/i);
  });

  it('seo_anchor: keyword anchor text sold with a link', async () => {
    await assertSignal('seo_anchor', [
      'Visit us: best plumber near me https://247plumbers.com', 'Thanks! buy instagram followers https://followerstore.io',
      '[url=https://cheap-essays.com]best essay writing service[/url] thanks', 'Good day! <a href="https://movers.ae">movers in Dubai</a>',
    ], [
      'Can I buy gift cards online? https://yourshop.com/gifts shows nothing.', 'Is there a cash machine near the venue? My phone says none near me.',
      'Where can I buy tickets online for Saturday?',
    ], /anchor text|SEO keyword phrase/i);
  });

  it('praise_link and stranger_link: generic praise with a link to a site the message never mentions', async () => {
    await assertSignal('praise_link', ['Nice article, thanks for sharing! https://best-home-tips.info', 'Toller Beitrag, danke! https://gartenmoebel.de'], [
      'Your article about roses had a broken link: https://yourblog.com/roses', 'Thanks for the quick reply, here is my order: https://yourshop.com/order/55',
    ], /generic praise/i);
    await assertSignal('stranger_link', ['Nice article, thanks for sharing! https://best-home-tips.info'], [
      'Great article on pruning roses! My climber still won\'t flower, photo: https://imgur.com/a/Xk2pQ9 – what did I do wrong?',
      'Hi, I\'m James, a freelance photographer; my work is at https://jamesholtphoto.co.uk',
    ], /never mentions/i);
  });

  it('stranger_link stays silent on a translator naming her own site; intelligent lets her through since the second round', async () => {
    // Her domain is named by "traductrice", so the signal is silent and `standard` lets her through. The first
    // round's classifier read an unasked offer about the reader's site with nobody named as outreach and flagged her;
    // issue 35's second round trained on more introductions of that shape and she now stays in the inbox (docs/spam.md).
    const message = 'Bonjour, je suis traductrice indépendante. Votre site n\'existe qu\'en français alors que vous vendez en Suisse. Je peux traduire vos pages en allemand. Mes références : https://claire-traductions.fr';
    const standard = checkStandard(submission(message));
    assert.ok(!standard.signals.includes('stranger_link'), standard.reason);
    assert.equal(standard.spam, false, standard.reason);
    assert.equal((await checkIntelligent(submission(message), null)).spam, false);
  });
});
