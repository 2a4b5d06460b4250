// What the dashboard is told live: that something changed for one owner's form, and how many
// times. Never the data itself: the page asks for its rows again through the usual routes (and
// their ownership checks), so an event that reached the wrong listener would reveal nothing.
export type LiveEventType = 'submissions' | 'verdicts' | 'deliveries';

export interface LiveEvent {
  type: LiveEventType;
  account: string;
  form: string;
  count: number;
}

/** One event per (type, account, form) of a batch, with the number of rows it stands for. */
export function countEvents(type: LiveEventType, rows: Iterable<{ account: string; form: string }>): LiveEvent[] {
  const byForm = new Map<string, LiveEvent>();
  for (const { account, form } of rows) {
    const key = `${account}/${form}`;
    const event = byForm.get(key);
    if (event) event.count += 1;
    else byForm.set(key, { type, account, form, count: 1 });
  }
  return [...byForm.values()];
}

const TYPES = new Set<string>(['submissions', 'verdicts', 'deliveries']);

/** Events read back from another process's message; anything malformed is dropped. */
export function parseEvents(text: string): LiveEvent[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.filter((e): e is LiveEvent =>
    typeof e === 'object' && e !== null && TYPES.has((e as LiveEvent).type) && typeof (e as LiveEvent).account === 'string'
    && typeof (e as LiveEvent).form === 'string' && Number.isSafeInteger((e as LiveEvent).count) && (e as LiveEvent).count > 0);
}

/**
 * The events as messages of at most `maxBytes` (PostgreSQL's NOTIFY payload stops at 8,000 bytes):
 * one message for a batch, more only when one batch touched very many forms.
 */
export function messagesOf(events: LiveEvent[], maxBytes: number): string[] {
  const messages: string[] = [];
  let current: string[] = [];
  let size = 2;
  for (const event of events) {
    const text = JSON.stringify(event);
    if (current.length > 0 && size + text.length + 1 > maxBytes) {
      messages.push(`[${current.join(',')}]`);
      current = [];
      size = 2;
    }
    current.push(text);
    size += text.length + 1;
  }
  if (current.length > 0) messages.push(`[${current.join(',')}]`);
  return messages;
}
