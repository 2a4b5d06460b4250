// What the pipeline needs of a language model: one chat completion. Any OpenAI-compatible
// server (OpenAI, Ollama, vLLM, llama.cpp) provides it through openai-chat.ts.

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatOptions {
  /** Ask the server for a JSON object (`response_format: { type: 'json_object' }`). */
  json?: boolean;
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
}

export interface ChatModel {
  /** The assistant's reply text. Throws ProviderError on timeouts, HTTP errors and malformed answers. */
  complete(messages: ChatMessage[], options?: ChatOptions): Promise<string>;
}
