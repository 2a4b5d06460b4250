// Reads a dashboard live stream over a real port as a browser's EventSource would: the session
// cookie, `Accept: text/event-stream`, events parsed from the body as it arrives.
export interface StreamEvent {
  event: string;
  data: Record<string, unknown>;
}

export interface LiveStream {
  status: number;
  events: StreamEvent[];
  /** The next event of `type` not yet taken, within `timeoutMs`. */
  next(type: string, timeoutMs?: number): Promise<StreamEvent>;
  close(): void;
}

export async function openStream(url: string, cookie: string): Promise<LiveStream> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { cookie, accept: 'text/event-stream' }, signal: controller.signal, redirect: 'manual' });
  const events: StreamEvent[] = [];
  const waiting = new Set<() => void>();
  if (response.ok && response.body && response.headers.get('content-type')?.startsWith('text/event-stream')) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffered = '';
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          buffered += decoder.decode(chunk, { stream: true });
          let end: number;
          while ((end = buffered.indexOf('\n\n')) !== -1) {
            const block = buffered.slice(0, end);
            buffered = buffered.slice(end + 2);
            const type = /^event: ?(.*)$/m.exec(block)?.[1];
            const data = /^data: ?(.*)$/m.exec(block)?.[1];
            if (type && data) events.push({ event: type, data: JSON.parse(data) as Record<string, unknown> });
            for (const wake of [...waiting]) wake();
          }
        }
      } catch {
        // aborted
      }
    })();
  } else {
    await response.body?.cancel();
  }
  let taken = 0;
  return {
    status: response.status,
    events,
    async next(type, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const index = events.findIndex((e, i) => i >= taken && e.event === type);
        if (index !== -1) {
          taken = index + 1;
          return events[index] as StreamEvent;
        }
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no "${type}" event within ${timeoutMs} ms (got ${events.map((e) => e.event).join(', ') || 'nothing'})`);
        await new Promise<void>((resolve) => {
          const wake = () => { waiting.delete(wake); clearTimeout(timer); resolve(); };
          const timer = setTimeout(wake, left);
          waiting.add(wake);
        });
      }
    },
    close: () => controller.abort(),
  };
}
