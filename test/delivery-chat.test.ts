// Chat destinations end to end: a destination made through the API, a submission through the
// public endpoint, the pipeline and delivery workers, and a real receiver on 127.0.0.1 that must
// get the platform's documented message shape, with mentions and markup in the data kept inert.
// Telegram always posts to https://api.telegram.org: a test resolver sends that name to a local
// HTTPS stand-in on port 443 with a self-signed certificate the client is told to trust.
import assert from 'node:assert/strict';
import https from 'node:https';
import type tls from 'node:tls';
import { after, before, describe, it } from 'node:test';
import type { Resolver } from '../src/delivery/outbound/index.ts';
import { startFakeProvider, type FakeProvider, type ReceivedRequest } from './fake-provider.ts';
import { bearer, createForm, startPipelineApp, submit, waitFor, type PipelineApp } from './pipeline-helpers.ts';
import { selfSignedCertificate } from './tls.ts';

type Json = Record<string, any>;

const FORM_NAME = 'Chat form';
const HOSTILE = 'ping @everyone and <!channel>, then <b>x</b> & more';
const DATA = { name: 'Ada Lovelace', email: 'ada@example.com', message: HOSTILE };
const BOT_TOKEN = '123456789:AAE_test-token_abcdefghijklmnopqrstuv';
const CHAT_ID = -1001234567890;
const TELEGRAM_HOST = 'api.telegram.org';

interface TelegramStandIn {
  address: string;
  cert: string;
  requests: Array<ReceivedRequest & { servername: string | false | null }>;
  close(): Promise<void>;
}

/**
 * An HTTPS server on port 443 of a random loopback address (so parallel runs do not collide),
 * answering like the Bot API. Null, with the reason, when openssl or the port is not available.
 */
async function startTelegramStandIn(): Promise<TelegramStandIn | string> {
  const credentials = selfSignedCertificate(TELEGRAM_HOST);
  if (!credentials) return 'openssl is not available to make a certificate';
  const requests: TelegramStandIn['requests'] = [];
  const server = https.createServer(credentials, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // kept as text
      }
      const servername = (req.socket as tls.TLSSocket).servername;
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, raw, servername });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, result: { message_id: requests.length } }));
    });
  });
  for (let tries = 0; tries < 10; tries++) {
    const address = `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
      server.once('error', resolve);
      server.listen(443, address, () => resolve(null));
    });
    if (!error) {
      return {
        address, cert: credentials.cert, requests,
        close: () => {
          server.closeAllConnections();
          return new Promise((resolve) => server.close(() => resolve()));
        },
      };
    }
    if (error.code !== 'EADDRINUSE') return `cannot listen on port 443 (${error.code ?? error.message})`;
  }
  return 'no free loopback address with port 443';
}

/** Every object anywhere in a payload. */
function allObjects(value: unknown): Json[] {
  if (Array.isArray(value)) return value.flatMap(allObjects);
  if (value && typeof value === 'object') return [value as Json, ...Object.values(value).flatMap(allObjects)];
  return [];
}

describe('chat destinations, end to end', () => {
  let t: PipelineApp;
  let receiver: FakeProvider;
  let telegram: TelegramStandIn | null = null;
  let telegramSkip: string | null = null;
  let key: string;
  let form: Awaited<ReturnType<typeof createForm>>;
  let submissionId: string;
  const destinationIds = new Map<string, string>();

  before(async () => {
    receiver = await startFakeProvider(() => ({ status: 200, body: 'ok' }));
    const standIn = await startTelegramStandIn();
    if (typeof standIn === 'string') telegramSkip = standIn;
    else telegram = standIn;
    const resolve: Resolver = async (hostname) => {
      if (telegram && hostname === TELEGRAM_HOST) return [{ address: telegram.address, family: 4 }];
      throw Object.assign(new Error(`no such host ${hostname}`), { code: 'ENOTFOUND' });
    };
    const allow = ['127.0.0.1', ...(telegram ? [telegram.address] : [])].join(',');
    t = await startPipelineApp({ INTAKE_OUTBOUND_ALLOW: allow }, { outbound: { resolve, ...(telegram && { ca: telegram.cert }) } });
    key = await t.createKey();
    form = await createForm(t, key, { name: FORM_NAME });

    const bodies: Array<[string, Json]> = [
      ['slack', { type: 'slack', url: `${receiver.url}/slack/T000/B000/XXXX` }],
      ['discord', { type: 'discord', url: `${receiver.url}/discord/api/webhooks/1/abc` }],
      ['teams', { type: 'teams', url: `${receiver.url}/teams/webhookb2/xyz` }],
      ['google_chat', { type: 'google_chat', url: `${receiver.url}/google_chat/v1/spaces/AAA/messages?key=k&token=t` }],
      ...(telegram ? [['telegram', { type: 'telegram', bot_token: BOT_TOKEN, chat_id: CHAT_ID }] as [string, Json]] : []),
    ];
    for (const [type, body] of bodies) {
      const response = await t.request({ method: 'POST', url: `/api/forms/${form.id}/destinations`, headers: bearer(key), payload: body });
      assert.equal(response.statusCode, 201, response.body);
      const created = response.json() as Json;
      assert.equal(created.type, type);
      assert.equal(created.enabled, true);
      assert.equal('secret' in created, false, 'only webhooks get a signing secret');
      destinationIds.set(type, created.id);
    }
    submissionId = await submit(t, form.endpoint, DATA);
  });

  after(async () => {
    await t?.close();
    await receiver?.close();
    await telegram?.close();
  });

  /** The one request a destination's receiver got for the submission (waits for it). */
  async function received(prefix: string): Promise<ReceivedRequest> {
    const request = await waitFor(`a request to /${prefix}`, () => receiver.requests.find((r) => r.path.startsWith(`/${prefix}/`)));
    assert.equal(receiver.requests.filter((r) => r.path.startsWith(`/${prefix}/`)).length, 1, 'one message per submission');
    assert.equal(request.method, 'POST');
    assert.match(String(request.headers['content-type']), /^application\/json/);
    return request;
  }

  /** The destination's delivery log, once its one delivery has succeeded. */
  async function deliveredOnce(type: string): Promise<void> {
    const id = destinationIds.get(type)!;
    const delivery = await waitFor(`the ${type} delivery to be recorded`, async () => {
      const response = await t.request({ method: 'GET', url: `/api/forms/${form.id}/destinations/${id}/deliveries`, headers: bearer(key) });
      assert.equal(response.statusCode, 200, response.body);
      const page = response.json() as { data: Json[] };
      return page.data[0]?.status === 'pending' ? undefined : page.data[0];
    });
    assert.equal(delivery.status, 'succeeded', JSON.stringify(delivery));
    assert.equal(delivery.submission_id, submissionId);
    assert.equal(delivery.attempts, 1);
    assert.equal(delivery.log[0].status_code, 200);
  }

  it('posts Block Kit to Slack: a header block, values as escaped plain text', async () => {
    const request = await received('slack');
    assert.equal(request.path, '/slack/T000/B000/XXXX');
    const body = request.body as Json;
    assert.ok(Array.isArray(body.blocks) && body.blocks.length > 0);
    assert.equal(body.blocks[0].type, 'header');
    assert.equal(body.blocks[0].text.type, 'plain_text');
    assert.equal(body.blocks[0].text.text, `New submission: ${FORM_NAME}`);
    assert.equal(typeof body.text, 'string', 'the notification fallback');
    const texts = allObjects(body.blocks).filter((o) => o.type === 'plain_text' || o.type === 'mrkdwn');
    assert.ok(texts.some((o) => o.text === 'Ada Lovelace' && o.type === 'plain_text'));
    // Slack reads <…> as control sequences (<!channel> pings everyone) and & as an entity start.
    const message = texts.find((o) => String(o.text).startsWith('ping'));
    assert.ok(message, 'the message field is in the blocks');
    assert.equal(message.type, 'plain_text', 'submitted text is never mrkdwn');
    assert.equal(message.text, 'ping @everyone and &lt;!channel&gt;, then &lt;b&gt;x&lt;/b&gt; &amp; more');
    assert.ok(!request.raw.includes('<!channel>') && !request.raw.includes('<b>'));
    const button = allObjects(body.blocks).find((o) => o.type === 'button');
    assert.match(String(button?.url), new RegExp(`/submissions/${submissionId}$`));
    await deliveredOnce('slack');
  });

  it('posts an embed to Discord with mentions turned off and markup escaped', async () => {
    const request = await received('discord');
    const body = request.body as Json;
    assert.deepEqual(body.allowed_mentions, { parse: [] });
    assert.equal(body.embeds[0].title, `New submission: ${FORM_NAME}`);
    assert.match(String(body.embeds[0].url), new RegExp(`/submissions/${submissionId}$`));
    const fields = body.embeds[0].fields as Json[];
    assert.ok(fields.some((f) => f.name === 'name' && f.value === 'Ada Lovelace'));
    const message = fields.find((f) => f.name === 'message');
    assert.ok(message, 'the message field is an embed field');
    const value = String(message.value);
    assert.ok(!value.includes('@everyone'), `@everyone must not arrive as typed: ${value}`);
    assert.match(value, /@\u200beveryone/);
    assert.ok(!/(?<!\\)[<>]/.test(value), `every < and > is backslash-escaped: ${value}`);
    // Undoing the escapes gives back exactly what was submitted: inert, not mangled.
    assert.equal(value.replace(/\\(.)/g, '$1').replace(/\u200b/g, ''), HOSTILE);
    assert.ok(!request.raw.includes('<!channel>') && !request.raw.includes('<b>x'));
    await deliveredOnce('discord');
  });

  it('posts a message with an Adaptive Card to Teams, values in TextRuns', async () => {
    const request = await received('teams');
    const body = request.body as Json;
    assert.equal(body.type, 'message');
    assert.equal(body.attachments.length, 1);
    const [attachment] = body.attachments as Json[];
    assert.equal(attachment!.contentType, 'application/vnd.microsoft.card.adaptive');
    const card = attachment!.content as Json;
    assert.equal(card.type, 'AdaptiveCard');
    assert.match(String(card.version), /^1\.\d+$/);
    assert.ok(Array.isArray(card.body) && card.body.length > 0);
    const runs = allObjects(card.body).filter((o) => o.type === 'TextRun').map((o) => o.text);
    assert.ok(runs.includes(FORM_NAME) && runs.includes('Ada Lovelace'));
    // A TextRun is never read as markdown: the text arrives as typed and shows as typed.
    assert.ok(runs.includes(HOSTILE), 'the message is a TextRun');
    const textBlocks = allObjects(card.body).filter((o) => o.type === 'TextBlock').map((o) => String(o.text));
    assert.ok(textBlocks.every((text) => !text.includes('<b>') && !text.includes('@everyone')), 'no submitted text in markdown TextBlocks');
    const action = (card.actions as Json[]).find((a) => a.type === 'Action.OpenUrl');
    assert.match(String(action?.url), new RegExp(`/submissions/${submissionId}$`));
    await deliveredOnce('teams');
  });

  it('posts a cardsV2 card to Google Chat with HTML escaped', async () => {
    const request = await received('google_chat');
    assert.equal(request.path, '/google_chat/v1/spaces/AAA/messages?key=k&token=t', 'the query (key and token) is kept');
    const body = request.body as Json;
    assert.equal(body.text, undefined, 'no top-level text, where <users/all> would mention everyone');
    assert.equal(body.cardsV2.length, 1);
    const card = body.cardsV2[0].card as Json;
    assert.equal(card.header.title, FORM_NAME);
    const paragraphs = allObjects(card.sections).filter((o) => o.textParagraph).map((o) => String(o.textParagraph.text));
    assert.ok(paragraphs.some((p) => p.includes('Ada Lovelace')));
    assert.ok(paragraphs.some((p) => p.includes('ping @everyone and &lt;!channel&gt;, then &lt;b&gt;x&lt;/b&gt; &amp; more')));
    assert.ok(!request.raw.includes('<b>x</b>'));
    await deliveredOnce('google_chat');
  });

  it('calls the Bot API sendMessage of Telegram with chat_id and HTML parse mode', async (context) => {
    if (!telegram) return context.skip(telegramSkip ?? 'no Telegram stand-in');
    const standIn = telegram;
    const request = await waitFor('a request to the Telegram stand-in', () => standIn.requests[0]);
    assert.equal(standIn.requests.length, 1);
    assert.equal(request.method, 'POST');
    assert.equal(request.path, `/bot${BOT_TOKEN}/sendMessage`);
    assert.equal(request.servername, TELEGRAM_HOST, 'TLS spoke to api.telegram.org by name');
    assert.equal(request.headers.host, TELEGRAM_HOST);
    assert.match(String(request.headers['content-type']), /^application\/json/);
    const body = request.body as Json;
    assert.equal(String(body.chat_id), String(CHAT_ID));
    assert.equal(body.parse_mode, 'HTML');
    const text = String(body.text);
    assert.ok(text.startsWith(`<b>New submission: ${FORM_NAME}</b>`), text);
    assert.ok(text.includes('Ada Lovelace'));
    assert.ok(text.includes('ping @everyone and &lt;!channel&gt;, then &lt;b&gt;x&lt;/b&gt; &amp; more'), text);
    assert.ok(!text.includes('<b>x</b>') && !text.includes('<!channel>'));
    await deliveredOnce('telegram');
  });
});
