import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { SubmissionEvent } from '../src/delivery/event.ts';
import type { Submission } from '../src/submissions/store.ts';
import { TRUNCATION_MARKER, clip, fitEntries, submissionContent, valueText } from '../src/delivery/formats/content.ts';
import { slackMessage } from '../src/delivery/formats/slack.ts';
import { DISCORD_RED, discordMessage } from '../src/delivery/formats/discord.ts';
import { teamsMessage } from '../src/delivery/formats/teams.ts';
import { googleChatMessage } from '../src/delivery/formats/google-chat.ts';
import { telegramMessage, telegramUrl } from '../src/delivery/formats/telegram.ts';

const LINK = 'https://intake.example/forms/frm_1/submissions/sub_1';

function submissionEvent(overrides: Partial<Submission> = {}, formName = 'Contact'): SubmissionEvent {
  const submission = {
    id: 'sub_1', data: { name: 'Ada', email: 'ada@example.com', message: 'Hello there' }, created_at: '2025-01-02T03:04:05.000Z',
    processing_status: 'processed', processing_reason: null, spam_flag: false, spam_confidence: null, spam_reason: null,
    original_language: null, translated_data: null, reply_status: 'none', reply_content: null, reply_reason: null, replied_at: null,
    metadata: { ip: '203.0.113.1', user_agent: null, referer: null, origin: null, utm: {} },
    ...overrides,
  } as Submission;
  const form = { id: 'frm_1', name: formName, slug: 'contact', visibility: 'public' as const, version: 1 };
  return { id: 'evt_1', type: 'submission.created', created_at: '2025-01-02T03:04:06.000Z', data: { form, submission } };
}

const SPAM = { spam_flag: true, spam_confidence: 0.97, spam_reason: 'Mentions crypto giveaways' };
const TRANSLATED = { data: { name: 'Jörg', message: 'Hallo, ich brauche Hilfe' }, original_language: 'de', translated_data: { message: 'Hello, I need help' } };
const LONG_VALUE = 'x'.repeat(10_000);
const HOSTILE = { everyone: '@everyone', channel: '<!channel>', user: '<@U123>', html: '<b>bold</b>', stars: '*stars*', link: '[link](https://evil.example)' };
/** 100 fields of `value`, translated too: more than any platform takes in one message. */
const HUGE = (value: string) => {
  const data = Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`field${index}`, value]));
  return { data, translated_data: data, original_language: 'fr' };
};

type Json = Record<string, any>;

/** Every object anywhere in a payload, for assertions about all text objects at once. */
function allObjects(value: unknown): Json[] {
  if (Array.isArray(value)) return value.flatMap(allObjects);
  if (typeof value !== 'object' || value === null) return [];
  return [value as Json, ...Object.values(value).flatMap(allObjects)];
}

const bytes = (payload: unknown) => Buffer.byteLength(JSON.stringify(payload));

describe('content', () => {
  it('lists fields in data order, objects and arrays as compact JSON, without control characters', () => {
    const content = submissionContent(submissionEvent({ data: { b: 1, a: ['x', 'y'], c: { k: true }, d: 'line\r\nnext\u0000', e: '' } }), LINK);
    assert.deepEqual(content.entries.map((entry) => [entry.name, entry.value]), [['b', '1'], ['a', '["x","y"]'], ['c', '{"k":true}'], ['d', 'line\nnext'], ['e', '(empty)']]);
    assert.equal(content.link, LINK);
    assert.equal(valueText(null), 'null');
    // Only well-formed language codes are kept.
    assert.equal(submissionContent(submissionEvent({ original_language: 'pt-BR' }), LINK).language, 'pt-BR');
    assert.equal(submissionContent(submissionEvent({ original_language: '<b>de</b>' }), LINK).language, null);
  });

  it('cuts by the cost of the escaped text and ends a cut with the marker', () => {
    const escapeLt = { escape: (text: string) => text.replace(/</g, '&lt;'), cost: (encoded: string) => encoded.length };
    const cut = clip('<'.repeat(100), 40, escapeLt);
    assert.ok(cut.length <= 40 && cut.length > 30, `${cut.length}`);
    assert.match(cut, /^(&lt;)+… \(truncated\)$/);
    assert.equal(clip('short', 40, escapeLt), 'short');
    // A surrogate pair is never split.
    assert.doesNotMatch(clip('😀'.repeat(50), 30), /[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('fits entries in order until the budget runs out and counts the rest', () => {
    const entries = Array.from({ length: 10 }, (_, index) => ({ name: `f${index}`, value: 'v'.repeat(100) }));
    const fitted = fitEntries(entries, { maxEntries: 25, nameMax: 50, valueMax: 1000, budget: 350 });
    assert.equal(fitted.entries.length + fitted.omitted, 10);
    assert.deepEqual(fitted.entries.map((entry) => entry.name), ['f0', 'f1', 'f2', 'f3']);
    assert.ok(fitted.entries[3]!.value.endsWith(TRUNCATION_MARKER));
    assert.ok(fitted.remaining >= 0);
  });
});

describe('Slack', () => {
  const fieldTexts = (message: ReturnType<typeof slackMessage>) =>
    message.blocks.filter((block) => block.type === 'section' && Array.isArray(block.fields)).flatMap((block) => block.fields as Json[]);

  it('renders a Block Kit message: fallback text, header, name/value fields, context and a link button', () => {
    const message = slackMessage(submissionEvent(), LINK);
    assert.equal(message.text, 'New submission: Contact');
    assert.equal(message.mrkdwn, false);
    assert.deepEqual(message.blocks[0], { type: 'header', text: { type: 'plain_text', text: 'New submission: Contact', emoji: false } });
    assert.deepEqual(fieldTexts(message).map((field) => field.text), ['name', 'Ada', 'email', 'ada@example.com', 'message', 'Hello there']);
    assert.ok(fieldTexts(message).every((field) => field.type === 'plain_text' && field.emoji === false));
    assert.ok(message.blocks.some((block) => block.type === 'context'));
    const button = (message.blocks.find((block) => block.type === 'actions') as Json).elements[0];
    assert.deepEqual([button.type, button.url], ['button', LINK]);
  });

  it('marks spam with its reason, and adds the translated fields under their own heading', () => {
    const spam = slackMessage(submissionEvent(SPAM), LINK);
    assert.match((spam.blocks[0] as Json).text.text, /^\[Spam\]/);
    assert.ok(spam.blocks.some((block) => (block as Json).text?.text === '⚠️ Flagged as spam: Mentions crypto giveaways'));
    const message = slackMessage(submissionEvent(TRANSLATED), LINK);
    const headingIndex = message.blocks.findIndex((block) => (block as Json).text?.text === '*Translation (from de)*');
    assert.ok(headingIndex > 0);
    assert.deepEqual((message.blocks[headingIndex + 1] as Json).fields.map((field: Json) => field.text), ['message', 'Hello, I need help']);
    assert.match(JSON.stringify(message.blocks.at(-2)), /Language: de/);
  });

  it('cuts a 10,000-character value to the 2000-character field limit and keeps 100 long fields within 50 blocks', () => {
    const value = fieldTexts(slackMessage(submissionEvent({ data: { message: LONG_VALUE } }), LINK))[1]!.text as string;
    assert.ok(value.endsWith(TRUNCATION_MARKER) && value.length <= 2000 && value.length > 1900, `${value.length}`);
    const message = slackMessage(submissionEvent(HUGE('<'.repeat(3000))), LINK);
    assert.ok(message.blocks.length <= 50, `${message.blocks.length}`);
    for (const block of message.blocks) if (Array.isArray(block.fields)) assert.ok(block.fields.length <= 10);
    assert.ok(fieldTexts(message).every((field) => field.text.length <= 2000));
    assert.match(JSON.stringify(message.blocks), /more fields not shown/);
  });

  it('sends submitted mentions, links and markup as inert plain text', () => {
    const message = slackMessage(submissionEvent({ data: HOSTILE }, '<!here> *Form*'), LINK);
    assert.deepEqual(fieldTexts(message).map((field) => field.text), [
      'everyone', '@everyone', 'channel', '&lt;!channel&gt;', 'user', '&lt;@U123&gt;',
      'html', '&lt;b&gt;bold&lt;/b&gt;', 'stars', '*stars*', 'link', '[link](https://evil.example)',
    ]);
    assert.equal((message.blocks[0] as Json).text.text, 'New submission: &lt;!here&gt; *Form*');
    assert.equal(message.text, 'New submission: &lt;!here&gt; *Form*');
    // mrkdwn is only ever our own label text.
    const mrkdwn = allObjects(message).filter((object) => object.type === 'mrkdwn');
    assert.ok(mrkdwn.every((object) => !/[<>&@]|stars|Form/.test(object.text)));
  });
});

describe('Discord', () => {
  it('renders an embed with title, link, colour, fields, footer and timestamp, and mentions nobody', () => {
    const message = discordMessage(submissionEvent(), LINK);
    assert.deepEqual(message.allowed_mentions, { parse: [] });
    const embed = message.embeds[0] as Json;
    assert.deepEqual([embed.title, embed.url, embed.description], ['New submission: Contact', LINK, undefined]);
    assert.ok(typeof embed.color === 'number' && embed.color !== DISCORD_RED);
    assert.deepEqual(embed.fields, [['name', 'Ada'], ['email', 'ada@example.com'], ['message', 'Hello there']].map(([name, value]) => ({ name, value, inline: true })));
    assert.deepEqual([embed.footer.text, embed.timestamp], ['Submission sub_1', '2025-01-02T03:04:05.000Z']);
  });

  it('colours spam red with the reason, and puts a translation in a second embed', () => {
    const embed = discordMessage(submissionEvent(SPAM), LINK).embeds[0] as Json;
    assert.equal(embed.color, DISCORD_RED);
    assert.equal(embed.description, '**Flagged as spam**: Mentions crypto giveaways');
    assert.match(embed.title, /^\[Spam\]/);
    const message = discordMessage(submissionEvent(TRANSLATED), LINK);
    assert.deepEqual([message.embeds.length, message.embeds[1]!.title], [2, 'Translation (from de)']);
    assert.deepEqual(message.embeds[1]!.fields, [{ name: 'message', value: 'Hello, I need help', inline: true }]);
    assert.equal((message.embeds[0] as Json).footer.text, 'Language: de · Submission sub_1');
  });

  it('cuts a 10,000-character value to 1024 characters and keeps to 25 fields and 6000 characters across all embeds', () => {
    const value = (discordMessage(submissionEvent({ data: { message: LONG_VALUE } }), LINK).embeds[0] as Json).fields[0].value as string;
    assert.ok(value.endsWith(TRUNCATION_MARKER) && value.length <= 1024 && value.length > 1000, `${value.length}`);
    const message = discordMessage(submissionEvent({ ...SPAM, ...HUGE('*'.repeat(900)) }), LINK);
    let total = 0;
    for (const embed of message.embeds as Json[]) {
      assert.ok(embed.fields.length <= 25);
      total += (embed.title?.length ?? 0) + (embed.description?.length ?? 0) + (embed.footer?.text.length ?? 0);
      for (const field of embed.fields) {
        assert.ok(field.name.length <= 256 && field.value.length <= 1024 && field.value.length > 0);
        total += field.name.length + field.value.length;
      }
    }
    assert.ok(total <= 6000, `${total}`);
    assert.match((message.embeds[0] as Json).footer.text, /more fields not shown/);
  });

  it('escapes markdown and defuses mentions in submitted values', () => {
    const message = discordMessage(submissionEvent({ data: HOSTILE, ...SPAM, spam_reason: '@here *act now*' }), LINK);
    assert.deepEqual((message.embeds[0] as Json).fields.map((field: Json) => field.value), [
      '@\u200beveryone', '\\<!channel\\>', '\\<@U123\\>', '\\<b\\>bold\\</b\\>', '\\*stars\\*', '\\[link\\]\\(https://evil.example\\)',
    ]);
    assert.equal((message.embeds[0] as Json).description, '**Flagged as spam**: @\u200bhere \\*act now\\*');
    assert.deepEqual(message.allowed_mentions.parse, []);
  });
});

describe('Microsoft Teams', () => {
  const card = (message: ReturnType<typeof teamsMessage>) => message.attachments[0]!.content;
  const runs = (message: ReturnType<typeof teamsMessage>) =>
    allObjects(card(message).body).filter((object) => object.type === 'TextRun').map((run) => run.text as string);

  it('renders an Adaptive Card message with the fields and an open-link action', () => {
    const message = teamsMessage(submissionEvent(), LINK);
    assert.deepEqual([message.type, message.attachments.length], ['message', 1]);
    assert.equal(message.attachments[0]!.contentType, 'application/vnd.microsoft.card.adaptive');
    const content = card(message);
    assert.deepEqual([content.type, content.version, content.$schema], ['AdaptiveCard', '1.4', 'http://adaptivecards.io/schemas/adaptive-card.json']);
    assert.ok(Array.isArray(content.body));
    assert.deepEqual(content.actions, [{ type: 'Action.OpenUrl', title: 'View submission', url: LINK }]);
    assert.deepEqual(runs(message).slice(0, 7), ['Contact', 'name', 'Ada', 'email', 'ada@example.com', 'message', 'Hello there']);
  });

  it('shows spam with its reason in the attention colour, and the translation under its own heading', () => {
    const spam = teamsMessage(submissionEvent(SPAM), LINK);
    assert.ok((card(spam).body as Json[]).some((element) => element.type === 'TextBlock' && element.text === 'Flagged as spam' && element.color === 'Attention'));
    assert.ok(runs(spam).includes('Mentions crypto giveaways'));
    const body = card(teamsMessage(submissionEvent(TRANSLATED), LINK)).body as Json[];
    const heading = body.findIndex((element) => element.type === 'TextBlock' && element.text === 'Translation (from de)');
    assert.deepEqual(heading > 0 && allObjects(body.slice(heading)).filter((object) => object.type === 'TextRun').map((run) => run.text).slice(0, 2), ['message', 'Hello, I need help']);
  });

  it('cuts a 10,000-character value and stays under the 28 KB message limit with 100 long fields', () => {
    const single = runs(teamsMessage(submissionEvent({ data: { message: LONG_VALUE } }), LINK));
    assert.ok(single[2]!.endsWith(TRUNCATION_MARKER) && single[2]!.length <= 4000, `${single[2]!.length}`);
    const message = teamsMessage(submissionEvent(HUGE('é"\n'.repeat(1000))), LINK);
    assert.ok(bytes(message) < 28_000, `${bytes(message)}`);
    assert.ok((card(message).body as Json[]).some((element) => /more fields not shown/.test(element.text ?? '')));
  });

  it('puts submitted text only in TextRuns, which Adaptive Cards never read as markdown', () => {
    const message = teamsMessage(submissionEvent({ data: HOSTILE }), LINK);
    assert.deepEqual(runs(message).slice(1, 13), Object.entries(HOSTILE).flat());
    const markdownTexts = allObjects(card(message)).filter((object) => object.type === 'TextBlock' || object.type === 'FactSet');
    for (const value of Object.values(HOSTILE)) assert.ok(markdownTexts.every((object) => !JSON.stringify(object).includes(value)));
  });
});

describe('Google Chat', () => {
  const widgets = (message: ReturnType<typeof googleChatMessage>) => message.cardsV2[0]!.card.sections.flatMap((section) => section.widgets) as Json[];
  const paragraphs = (message: ReturnType<typeof googleChatMessage>) =>
    widgets(message).filter((widget) => widget.textParagraph).map((widget) => widget.textParagraph.text as string);

  it('renders a cardsV2 message with a header, one paragraph per field and a link button', () => {
    const message = googleChatMessage(submissionEvent(), LINK);
    assert.equal(Object.hasOwn(message, 'text'), false);
    assert.deepEqual(message.cardsV2[0]!.cardId, 'submission-sub_1');
    assert.deepEqual(message.cardsV2[0]!.card.header, { title: 'Contact', subtitle: 'New submission' });
    assert.deepEqual(paragraphs(message).slice(0, 3), ['<b>name</b><br>Ada', '<b>email</b><br>ada@example.com', '<b>message</b><br>Hello there']);
    assert.deepEqual(widgets(message).find((widget) => widget.buttonList)!.buttonList.buttons, [{ text: 'View submission', onClick: { openLink: { url: LINK } } }]);
  });

  it('marks spam with its reason, and adds the translated fields in their own section', () => {
    const message = googleChatMessage(submissionEvent(SPAM), LINK);
    assert.equal(message.cardsV2[0]!.card.header.subtitle, 'New submission, flagged as spam');
    assert.equal(paragraphs(message)[0], '<font color="#d93025"><b>Flagged as spam</b></font><br>Mentions crypto giveaways');
    const section = googleChatMessage(submissionEvent(TRANSLATED), LINK).cardsV2[0]!.card.sections.find((candidate) => candidate.header);
    assert.equal(section?.header, 'Translation (from de)');
    assert.deepEqual(section?.widgets, [{ textParagraph: { text: '<b>message</b><br>Hello, I need help' } }]);
  });

  it('cuts a 10,000-character value and keeps a 100-field message under 32,000 bytes', () => {
    const [value] = paragraphs(googleChatMessage(submissionEvent({ data: { message: LONG_VALUE } }), LINK));
    assert.ok(value!.endsWith(TRUNCATION_MARKER) && value!.length <= 4100, `${value!.length}`);
    const message = googleChatMessage(submissionEvent(HUGE('<ü>\n'.repeat(800))), LINK);
    assert.ok(bytes(message) < 32_000, `${bytes(message)}`);
    assert.ok(paragraphs(message).some((text) => text.includes('more fields not shown')));
  });

  it('escapes the HTML that card text would read', () => {
    const message = googleChatMessage(submissionEvent({ data: { ...HOSTILE, quote: 'a "b" & c\nd' } }), LINK);
    assert.deepEqual(paragraphs(message).slice(0, 7), [
      '<b>everyone</b><br>@everyone', '<b>channel</b><br>&lt;!channel&gt;', '<b>user</b><br>&lt;@U123&gt;',
      '<b>html</b><br>&lt;b&gt;bold&lt;/b&gt;', '<b>stars</b><br>*stars*', '<b>link</b><br>[link](https://evil.example)',
      '<b>quote</b><br>a &quot;b&quot; &amp; c<br>d',
    ]);
  });
});

describe('Telegram', () => {
  it('renders a sendMessage body in HTML mode without link previews', () => {
    const message = telegramMessage(submissionEvent(), LINK, -1001234);
    assert.deepEqual([message.chat_id, message.parse_mode, message.link_preview_options], [-1001234, 'HTML', { is_disabled: true }]);
    assert.equal(message.text, [
      '<b>New submission: Contact</b>', '', '<b>name:</b> Ada', '<b>email:</b> ada@example.com', '<b>message:</b> Hello there', '',
      '<i>Received 2025-01-02T03:04:05.000Z · Submission sub_1</i>', `<a href="${LINK}">View submission</a>`,
    ].join('\n'));
  });

  it('builds the endpoint from a bot token and refuses anything else', () => {
    assert.equal(telegramUrl('123456:ABC-def_ghi'), 'https://api.telegram.org/bot123456:ABC-def_ghi/sendMessage');
    for (const token of ['', 'abc', '123:abc/../../x', '123:abc?x=1']) assert.throws(() => telegramUrl(token));
  });

  it('marks spam and adds the translation', () => {
    const spam = telegramMessage(submissionEvent(SPAM), LINK, 'chat').text;
    assert.match(spam, /^<b>\[Spam\] New submission: Contact<\/b>\n⚠️ <b>Flagged as spam<\/b>: Mentions crypto giveaways\n/);
    const translated = telegramMessage(submissionEvent(TRANSLATED), LINK, 'chat').text;
    assert.match(translated, /\n\n<b>Translation \(from de\)<\/b>\n<b>message:<\/b> Hello, I need help\n\n/);
    assert.match(translated, /Language: de · /);
  });

  it('keeps the text within 4096 characters after entity parsing', () => {
    const visible = (html: string) => html.replace(/<[^>]*>/g, '').replace(/&(?:lt|gt|amp|quot);/g, '_').length;
    const single = telegramMessage(submissionEvent({ data: { message: LONG_VALUE } }), LINK, 1).text;
    assert.match(single, /<b>message:<\/b> x+… \(truncated\)\n/);
    assert.ok(visible(single) <= 4096);
    const many = telegramMessage(submissionEvent(HUGE('<&>'.repeat(500))), LINK, 1).text;
    assert.ok(visible(many) <= 4096 && visible(many) > 3900, `${visible(many)}`);
    assert.match(many, /more fields not shown/);
  });

  it('escapes the HTML that Telegram would parse', () => {
    const { text } = telegramMessage(submissionEvent({ data: HOSTILE }, 'A & <B>'), 'https://x.example/?a=1&b="2"', 1);
    assert.ok(text.startsWith('<b>New submission: A &amp; &lt;B&gt;</b>\n'));
    assert.ok(text.includes([
      '<b>everyone:</b> @everyone', '<b>channel:</b> &lt;!channel&gt;', '<b>user:</b> &lt;@U123&gt;',
      '<b>html:</b> &lt;b&gt;bold&lt;/b&gt;', '<b>stars:</b> *stars*', '<b>link:</b> [link](https://evil.example)',
    ].join('\n')), text);
    assert.ok(text.includes('\n<a href="https://x.example/?a=1&amp;b=&quot;2&quot;">View submission</a>'));
  });
});

describe('a test event ("Send test")', () => {
  const event: SubmissionEvent = { ...submissionEvent(), type: 'submission.test' };
  const LOG = 'https://intake.example/forms/frm_1/notifications/dst_1';

  it('says Test first on every platform, and labels its link as the delivery log', () => {
    const slack = slackMessage(event, LOG);
    assert.equal(slack.text, '[Test] New submission: Contact');
    assert.match(JSON.stringify(slack.blocks.at(-1)), /Open the delivery log/);
    assert.equal(discordMessage(event, LOG).embeds[0]!.title, '[Test] New submission: Contact');
    const teams = teamsMessage(event, LOG).attachments[0]!.content;
    assert.equal((teams.body[0] as Json).text, 'Test event: a sample submission');
    assert.match(JSON.stringify(teams.actions), /Open the delivery log/);
    const chat = googleChatMessage(event, LOG).cardsV2[0]!.card;
    assert.equal(chat.header.title, '[Test] Contact');
    assert.match(JSON.stringify(chat.sections), /Open the delivery log/);
    const telegram = telegramMessage(event, LOG, 1).text;
    assert.equal(telegram.split('\n')[0], '<b>[Test] New submission: Contact</b>');
    assert.ok(telegram.endsWith(`<a href="${LOG}">Open the delivery log</a>`));
  });

  it('leaves a real submission unmarked', () => {
    assert.equal(slackMessage(submissionEvent(), LINK).text, 'New submission: Contact');
    assert.equal(submissionContent(submissionEvent(), LINK).test, false);
  });
});
