// A server-sent events client over fetch for the feed suites: events parsed frame by frame, comment
// lines (heartbeats) counted, the response's status and headers kept.

/** One event: its `id:`, `event:` and `data:` (parsed as JSON). */
export interface SseEvent {
  readonly id: string | null;
  readonly event: string;
  readonly data: any;
}

export interface SseStream {
  readonly status: number;
  readonly headers: Headers;
  /** The error body of a refused request (status ≠ 200). */
  readonly error: any;
  /** The next event, or null once the server ended the stream. */
  next(): Promise<SseEvent | null>;
  /** The next `n` events (throws if the stream ends first). */
  take(n: number): Promise<SseEvent[]>;
  /** Comment lines received so far (the opening line and heartbeats). */
  comments(): number;
  /** Reads until at least `n` comment lines came (false if the stream ended first). */
  untilComments(n: number): Promise<boolean>;
  /** Disconnects. */
  close(): void;
}

/** GETs an event stream with a bearer token and extra headers (e.g. `last-event-id`). */
export async function openEvents(
  url: string,
  token: string | null,
  headers: Record<string, string> = {},
): Promise<SseStream> {
  const abort = new AbortController();
  const res = await fetch(url, {
    headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...headers },
    signal: abort.signal,
  });
  if (res.status !== 200 || !res.body) {
    const text = await res.text();
    let error: unknown = text;
    try {
      error = JSON.parse(text);
    } catch {}
    return {
      status: res.status,
      headers: res.headers,
      error,
      next: async () => null,
      take: async () => {
        throw new Error(`no stream: ${res.status}`);
      },
      comments: () => 0,
      untilComments: async () => false,
      close: () => undefined,
    };
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const queue: SseEvent[] = [];
  let buffer = '';
  let ended = false;
  let comments = 0;

  const parse = () => {
    for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
      const frame = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let id: string | null = null;
      let event = 'message';
      const data: string[] = [];
      for (const line of frame.split('\n')) {
        if (line.startsWith(':')) {
          comments++;
          continue;
        }
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') id = value;
        else if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      if (data.length > 0) queue.push({ id, event, data: JSON.parse(data.join('\n')) });
    }
  };

  /** Reads one chunk; false once the stream ended. */
  const pump = async (): Promise<boolean> => {
    if (ended) return false;
    try {
      const chunk = await reader.read();
      if (chunk.done) ended = true;
      else {
        buffer += decoder.decode(chunk.value, { stream: true });
        parse();
      }
    } catch {
      ended = true;
    }
    return !ended;
  };
  const next = async (): Promise<SseEvent | null> => {
    while (queue.length === 0 && (await pump()));
    return queue.shift() ?? null;
  };
  return {
    status: res.status,
    headers: res.headers,
    error: null,
    next,
    take: async (n) => {
      const out: SseEvent[] = [];
      while (out.length < n) {
        const event = await next();
        if (!event) throw new Error(`the stream ended after ${out.length} of ${n} events`);
        out.push(event);
      }
      return out;
    },
    comments: () => comments,
    untilComments: async (n) => {
      while (comments < n) if (!(await pump())) return false;
      return true;
    },
    close: () => abort.abort(),
  };
}
