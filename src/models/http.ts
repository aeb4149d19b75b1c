/** What one HTTP attempt came to: an answer (any status) or a failure to get one. */
export type Attempt =
  | {
      readonly kind: 'answer';
      readonly status: number;
      readonly headers: Headers;
      /** The body as text (UTF-8, invalid sequences replaced). */
      readonly text: string;
    }
  /** The body was over the byte limit: reading stopped there. */
  | { readonly kind: 'too_large'; readonly status: number; readonly limit: number }
  /** No complete answer before the signal fired (a timeout or the call's deadline). */
  | { readonly kind: 'timeout' }
  /** The connection failed: refused, reset, dropped mid-answer, DNS; `cause` is a code like ECONNREFUSED. */
  | { readonly kind: 'connection'; readonly cause: string };

/** One POST of a JSON body. */
export interface PostRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Fires at the attempt's timeout (or the call's deadline): headers and body are both covered. */
  readonly signal: AbortSignal;
  readonly maxBytes: number;
}

/** A code (`ECONNREFUSED`, `UND_ERR_SOCKET`, …) from a fetch failure's cause chain, or ''. */
function causeCode(error: unknown): string {
  for (let at = error, depth = 0; at instanceof Error && depth < 5; depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code)) return code;
    at = (at as { cause?: unknown }).cause;
  }
  return '';
}

/** Rejects when the signal fires, so no read can outlive it, whatever the stream does. */
function whenAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fire = () => reject(new DOMException('aborted', 'AbortError'));
    if (signal.aborted) fire();
    else signal.addEventListener('abort', fire, { once: true });
  });
}

async function readCapped(
  response: Response,
  maxBytes: number,
): Promise<{ text: string } | { tooLarge: true }> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    return { tooLarge: true };
  }
  if (response.body === null) return { text: '' };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        return { tooLarge: true };
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return { text: new TextDecoder().decode(Buffer.concat(chunks)) };
}

/**
 * Sends one POST and reads the whole answer within the signal's time: a server that is slow to send
 * headers, sends them and then hangs, or dribbles its body, all end as `timeout` when it fires.
 * Redirects are not followed (a redirected model URL is answered as its 3xx status).
 */
export async function postOnce(request: PostRequest): Promise<Attempt> {
  const { signal } = request;
  const aborted = whenAborted(signal);
  aborted.catch(() => {});
  try {
    const response = await Promise.race([
      fetch(request.url, {
        method: 'POST',
        headers: request.headers,
        body: request.body,
        redirect: 'manual',
        signal,
      }),
      aborted,
    ]);
    const read = await Promise.race([readCapped(response, request.maxBytes), aborted]);
    if ('tooLarge' in read) {
      return { kind: 'too_large', status: response.status, limit: request.maxBytes };
    }
    return { kind: 'answer', status: response.status, headers: response.headers, text: read.text };
  } catch (error) {
    if (signal.aborted) return { kind: 'timeout' };
    return { kind: 'connection', cause: causeCode(error) };
  }
}
