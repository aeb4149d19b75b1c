/**
 * The projects whose head is past their last signed checkpoint, and the timer that signs them: the
 * unsigned tail of every chain is bounded in count (a checkpoint every N entries, in the append
 * transaction) and in time (this timer signs the head `intervalMs` after the first unsigned append).
 * Entries in the unsigned window could be cut or extended by someone with write access to the
 * database without `verify` noticing; outside it, a signature covers them.
 */
export class UnsignedTails {
  readonly #dirty = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  /** The timer's flush while it runs: `stop` waits for it rather than close the store under it. */
  #flushing: Promise<void> | undefined;

  constructor(
    private readonly intervalMs: number | undefined,
    private readonly sign: (project: string) => Promise<unknown>,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** A project's head moved to `seq`; unless a checkpoint was signed exactly there, it is unsigned. */
  moved(project: string, seq: number, every: number): void {
    if (seq % every === 0) {
      this.#dirty.delete(project);
      return;
    }
    this.#dirty.add(project);
    if (this.intervalMs !== undefined && this.#timer === undefined && !this.#stopped) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        const flushing = this.flush().finally(() => {
          if (this.#flushing === flushing) this.#flushing = undefined;
        });
        this.#flushing = flushing;
      }, this.intervalMs).unref();
    }
  }

  /** Projects with entries past their last checkpoint, as far as this process knows. */
  pending(): string[] {
    return [...this.#dirty];
  }

  /** Signs a checkpoint at the head of every unsigned project now; failures are reported, not thrown. */
  async flush(): Promise<void> {
    const projects = [...this.#dirty];
    this.#dirty.clear();
    for (const project of projects) {
      try {
        await this.sign(project);
      } catch (err) {
        this.onError(err);
      }
    }
  }

  /** Stops the timer, waits for its flush in flight and signs what is left (shutdown). */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#flushing;
    await this.flush();
  }
}
