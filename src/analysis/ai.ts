// The model, translator and credit charger the analyses use: the same implementations,
// chosen from the same configuration, as the pipeline's worker.
import { creditCharger, type CreditCharger } from '../accounts/credits.ts';
import { creditStore } from '../accounts/credit-store.ts';
import type { ChatModel } from '../ai/chat-model.ts';
import { openAiChatModel } from '../ai/openai-chat.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { translatorFromConfig, type Translator } from '../pipeline/translation/index.ts';

export interface AiServices {
  model: ChatModel | null;
  translator: Translator | null;
  credits: CreditCharger;
}

export function aiServices(config: Config, database: Database): AiServices {
  const model = config.ai ? openAiChatModel(config.ai) : null;
  return { model, translator: translatorFromConfig(config.translation, model), credits: creditCharger(creditStore(database.db), config) };
}
