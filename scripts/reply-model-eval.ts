// The model path of smart replies on the held-out trials, against stand-ins that speak the OpenAI
// chat-completions protocol over HTTP (test/fake-provider.ts): no model runs here, so what is
// measured is what Intake controls. (1) Whether the passages sent to the model hold the answer:
// the most any model could answer right (every source, no HTTP). (2) A faithful stand-in that replies with the first
// passage it was given, word for word: its replies must pass the support check. (3) An inventing
// stand-in that adds a promise no knowledge base makes: every such reply must be caught, and the
// draft falls back to the offline reply.
import { openAiChatModel } from '../src/ai/openai-chat.ts';
import { TEMPLATE } from '../src/replies/compose.ts';
import { draftReply, type DraftInput } from '../src/replies/draft.ts';
import { answerParts, modelPassages } from '../src/replies/offline.ts';
import { startFakeProvider, type ReceivedRequest } from '../test/fake-provider.ts';
import type { Trial } from './reply-sources.ts';

const INVENTED = 'We also give every new customer a 20 % discount and free delivery within 24 hours.';
const FIELDS = [{ name: 'message', type: 'string' as const, required: false, rules: [] }];

/** The first passage a prompt offers, as the stand-ins read it from the request. */
function firstOffered(request: ReceivedRequest): { id: number; text: string } | null {
  const body = request.body as { messages?: Array<{ content: string }> };
  const line = body.messages?.[1]?.content.split('\n').find((l) => l.startsWith('Knowledge passages (JSON): '));
  if (!line) return null;
  return (JSON.parse(line.slice('Knowledge passages (JSON): '.length)) as Array<{ id: number; text: string }>)[0] ?? null;
}

const chat = (content: string) => ({ body: { id: 'chatcmpl-eval', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] } });

/** For every source: how often the passages a model would be sent hold the answer. */
export function passagesHoldingAnswers(trials: Trial[]): { answerable: number; held: number } {
  let answerable = 0;
  let held = 0;
  for (const trial of trials) {
    if (!trial.right) continue;
    answerable += 1;
    const passages = modelPassages(trial.index, answerParts(trial.index, trial.message), trial.message);
    // StackFAQ's test wants every passage quoted to be the thread's: one of them is enough here.
    const holds = trial.right(passages.map((p) => p.body), passages.map((p) => p.position)) || passages.some((p) => trial.right!([p.body], [p.position]));
    if (holds) held += 1;
  }
  return { answerable, held };
}

export async function evaluateModelPath(trials: Trial[]): Promise<void> {
  let invent = false;
  const provider = await startFakeProvider((request) => {
    const passage = firstOffered(request);
    if (!passage) return chat(JSON.stringify({ answerable: false }));
    const body = `Hello,\n\n${passage.text}${invent ? ` ${INVENTED}` : ''}\n\nBest regards,`;
    return chat(JSON.stringify({ answerable: true, subject: 'Your question', body, passages: [passage.id] }));
  });
  const model = openAiChatModel({ baseUrl: `${provider.url}/v1`, apiKey: null, model: 'stand-in', timeoutMs: 10_000 });
  const f = { faithful: 0, faithfulAccepted: 0, inventing: 0, inventingCaught: 0 };
  try {
    for (const trial of trials) {
      const input: DraftInput = {
        formName: 'Contact', fields: FIELDS, data: { message: trial.message }, translated: null, language: null,
        knowledge: { index: trial.index, signature: null, language: null },
      };
      if (modelPassages(trial.index, answerParts(trial.index, trial.message), trial.message).length === 0) continue;
      invent = false;
      const faithful = await draftReply(input, { model, translator: null });
      f.faithful += 1;
      if (faithful.kind === 'reply' && !faithful.body.includes(TEMPLATE.intro)) f.faithfulAccepted += 1;
      invent = true;
      const inventing = await draftReply(input, { model, translator: null });
      f.inventing += 1;
      if (!(inventing.kind === 'reply' && inventing.body.includes(INVENTED))) f.inventingCaught += 1;
    }
  } finally {
    await provider.close();
  }
  const pct = (a: number, b: number) => `${b === 0 ? '–' : ((a / b) * 100).toFixed(1)} %`;
  console.log(`\nmodel path, held-out small-business trials, against stand-ins over HTTP (${provider.requests.length} chat requests):`);
  console.log(`  a faithful stand-in's replies accepted                ${pct(f.faithfulAccepted, f.faithful)} (${f.faithfulAccepted} of ${f.faithful})`);
  console.log(`  an inventing stand-in's replies caught (offline used) ${pct(f.inventingCaught, f.inventing)} (${f.inventingCaught} of ${f.inventing})`);
}
