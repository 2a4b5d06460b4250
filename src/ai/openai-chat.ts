// The ChatModel over the OpenAI chat-completions protocol, which OpenAI, Ollama, vLLM and llama.cpp's
// server all speak. Their documented base URLs already end in /v1 (https://api.openai.com/v1,
// http://localhost:11434/v1 for Ollama, http://localhost:8000/v1 for vLLM, http://localhost:8080/v1
// for llama.cpp), so the configured base URL includes it and only /chat/completions is appended.
import type { Config } from '../config.ts';
import { ProviderError } from '../pipeline/provider-error.ts';
import { isRecord, postJson, redact } from '../pipeline/provider-http.ts';
import type { ChatMessage, ChatModel, ChatOptions } from './chat-model.ts';

const PROVIDER = 'model';

export function openAiChatModel(config: NonNullable<Config['ai']>, fetchImpl: typeof fetch = fetch): ChatModel {
  const url = `${config.baseUrl}/chat/completions`;
  return {
    async complete(messages: ChatMessage[], options: ChatOptions = {}): Promise<string> {
      const answer = await postJson({
        provider: PROVIDER,
        url,
        headers: config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {},
        body: {
          model: config.model,
          messages,
          // The pipeline classifies and translates: the same input should give the same answer.
          temperature: options.temperature ?? 0,
          // Left out unless asked: every server then allows the rest of the context window.
          max_tokens: options.maxTokens,
          response_format: options.json ? { type: 'json_object' } : undefined,
        },
        timeoutMs: config.timeoutMs,
        signal: options.signal,
        secrets: [config.apiKey],
        fetchImpl,
      });
      return replyText(answer, config.apiKey);
    },
  };
}

function replyText(answer: unknown, apiKey: string | null): string {
  const choice = isRecord(answer) && Array.isArray(answer.choices) ? answer.choices[0] : undefined;
  const content = isRecord(choice) && isRecord(choice.message) ? choice.message.content : undefined;
  if (typeof content === 'string') return content;
  // Some gateways answer 200 with an error object instead of choices.
  const error = isRecord(answer) && isRecord(answer.error) && typeof answer.error.message === 'string' ? answer.error.message : '';
  const detail = redact(error, [apiKey]).slice(0, 200);
  throw new ProviderError(PROVIDER, `the answer has no choices[0].message.content${detail ? `: ${detail}` : ''}`, { transient: false });
}
