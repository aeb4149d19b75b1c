import {
  type AirOptions,
  type AirPolicy,
  refitPacket,
  renderPacket,
  resolveAirPolicy,
} from '../air/index.js';
import type { Canon, Principal } from '../canon/index.js';
import { CanonryError, countTokens, LruCache } from '../core/index.js';
import { type DpeJudge, threadedJudge } from '../dpe/index.js';
import type { ModelPort } from '../models/index.js';
import type { HmacKeyring } from '../trust/index.js';
import { authority, type CompletedWindow, completeWindow, stillNext } from './complete.js';
import { sessionGenesis } from './cso-seal.js';
import { RELAY_HALT, RELAY_SESSION, windowEntryOf } from './entry-kinds.js';
import { type PreparedWindow, prepareWindow, windowPlan } from './prepare.js';
import { RelayReader, recordOf, type SessionRow } from './reader.js';
import { type RelayRun, type RunOptions, runSession } from './run.js';
import { type SessionInput, sessionInput } from './session-input.js';
import type {
  RelaySessionRecord,
  RelaySessionView,
  RelayWindowEntry,
  RelayWindowRecord,
  SessionPromotion,
} from './session-types.js';
import { type ChainReport, verifySession } from './verify-session.js';

/**
 * What a window may say about AIR beyond the session's policy: a `CRP-Safety-Policy` header (HTTP)
 * or options (library, CLI), applied over the session's (CRP-018 §6.1).
 */
export interface WindowOptions {
  readonly safetyPolicy?: string | null;
  readonly air?: AirOptions;
}

/** The AIR policy one window runs with. A malformed directive is INVALID_POLICY, naming it. */
export function airPolicyOf(session: RelaySessionRecord, options: WindowOptions): AirPolicy {
  return resolveAirPolicy(
    { ...(options.air ? { options: options.air } : {}), header: options.safetyPolicy ?? null },
    session.air,
  );
}

/** The AIR settings a promotion puts a new session under, and which promotion and arm. */
export interface PromotedAirSettings {
  readonly air: AirPolicy;
  readonly promotion: SessionPromotion;
}

/**
 * The port through which the runtime says what AIR settings are in force for a new session of a
 * project (a promotion's canary, baseline or promoted artifact): null for the defaults. The relay
 * knows nothing of promotions; `app` fills it from the promotion pipeline.
 */
export type AirSettingsFor = (
  project: string,
  sessionId: string,
) => Promise<PromotedAirSettings | null>;

/** How many recent sessions' last CSO and prepared context packet this process keeps. */
const RECENT_SESSIONS = 64;

/** What a {@link Relay} is built from. */
export interface RelayOptions {
  /** Canon under the relay's gate (`RELAY_GATE_PROTOCOL`): windows commit through it. */
  readonly canon: Canon;
  /** Canon under the project's own gate: escalations (§6.3) are proposed through it, for a person. */
  readonly projectCanon: Canon;
  /** The per-project HMAC keys the CSO chain is sealed with (trust module). */
  readonly hmac: HmacKeyring;
  /** Who measures each window (CRP-018's DPE): the deterministic engine unless given. */
  readonly judge?: DpeJudge;
  /** AIR settings for sessions that do not set their own (none: the defaults). */
  readonly airSettingsFor?: AirSettingsFor;
  readonly now?: () => Date;
}

/**
 * The state relay of CRP-030: sessions of context windows whose state (facts, decisions with their
 * rationale, open questions, constraints, the goal, the dependency graph) is carried from one window
 * to the next verified, revisable and HMAC-chained, and committed to canon through the gate.
 *
 * Use it with your own model (`prepareWindow` → your model → `completeWindow`) or let it drive a
 * model port (`run`).
 */
export class Relay {
  readonly canon: Canon;
  readonly projectCanon: Canon;
  readonly hmac: HmacKeyring;
  readonly judge: DpeJudge;
  readonly #now: () => Date;
  readonly #airSettingsFor: AirSettingsFor | undefined;

  constructor(options: RelayOptions) {
    this.#airSettingsFor = options.airSettingsFor;
    this.canon = options.canon;
    this.projectCanon = options.projectCanon;
    this.hmac = options.hmac;
    this.judge = options.judge ?? threadedJudge();
    this.#now = options.now ?? (() => new Date());
  }

  now(): Date {
    return this.#now();
  }

  reader(project: string): RelayReader {
    return new RelayReader(this.canon.journal.store, project);
  }

  /**
   * A session's windows up to `upTo` as the journal holds them, raw answers included (what a
   * replay needs; the projection's records leave those out): each read from the journal at the
   * seq the projection names, in window order. INTERNAL when an entry is not that window's.
   */
  async journaledWindows(
    project: string,
    sessionId: string,
    upTo: number,
  ): Promise<RelayWindowEntry[]> {
    const out: RelayWindowEntry[] = [];
    if (upTo < 1) return out;
    for (const { window_number, seq } of await this.reader(project).seqs(sessionId, 0, upTo)) {
      const [entry] = await this.canon.journal.read(project, { after: seq - 1, limit: 1 });
      const window = entry?.seq === seq ? windowEntryOf(entry) : null;
      if (window?.session_id !== sessionId || window.window_number !== window_number) {
        throw new CanonryError(
          'INTERNAL',
          `the journal holds no window ${window_number} of the session at seq ${seq}`,
        );
      }
      out.push(window);
    }
    return out;
  }

  /**
   * The last window each recent session relayed or read in this process, with its entry's journal
   * seq: a window starts from the objects (its CSO's items are carried by identity), and its record
   * is not parsed again while the projection holds that same entry.
   */
  readonly #latest = new LruCache<string, { record: RelayWindowRecord; seq: number }>(
    RECENT_SESSIONS,
  );

  /** The context packet each recent session was last prepared with in this process, by window. */
  readonly #prepared = new LruCache<string, { window_number: number; hash: string }>(
    RECENT_SESSIONS,
  );

  /** Keeps a session's newest window and its entry's seq (the 64 most recent sessions). */
  remember(project: string, sessionId: string, record: RelayWindowRecord, seq: number): void {
    this.#latest.set(`${project} ${sessionId}`, { record, seq });
  }

  /**
   * Window `n` of a session with its CSO: the record this process kept when the projection's entry
   * is the same journal entry (one column read); else the entry parsed, with the CSO this process
   * sealed when it names the same seal (items are immutable, carried by identity), else folded from
   * the rows.
   */
  async window(project: string, sessionId: string, n: number): Promise<RelayWindowRecord | null> {
    if (n < 1) return null;
    const reader = this.reader(project);
    const kept = this.#latest.get(`${project} ${sessionId}`);
    if (kept?.record.window_number === n && (await reader.seq(sessionId, n)) === kept.seq) {
      return kept.record;
    }
    const journaled = await reader.journaled(sessionId, n);
    if (!journaled) return null;
    const { entry, seq } = journaled;
    const keptCso = kept?.record.window_number === n ? kept.record.cso : null;
    const cso = keptCso?.cso_hmac === entry.state.cso_hmac ? keptCso : await reader.cso(entry);
    const record = recordOf(entry, cso);
    this.remember(project, sessionId, record, seq);
    return record;
  }

  /** Starts a session in the principal's project; its state is committed as its own agent. */
  async start(
    principal: Principal,
    input: unknown,
    options: { safetyPolicy?: string | null } = {},
  ): Promise<RelaySessionView> {
    if (principal.role === 'viewer')
      throw new CanonryError('FORBIDDEN', 'viewers cannot start a relay');
    const parsed: SessionInput = sessionInput(input, options.safetyPolicy);
    const sessionId = newSessionId();
    // A request that sets AIR itself runs what it set, in no promotion's arm.
    const promoted =
      parsed.air_explicit || this.#airSettingsFor === undefined
        ? null
        : await this.#airSettingsFor(principal.project, sessionId);
    const session: RelaySessionRecord = {
      session_id: sessionId,
      project: principal.project,
      mode: parsed.mode,
      objective: parsed.objective,
      remaining: parsed.remaining,
      success_test: parsed.success_test,
      agent: `relay:${sessionId}`,
      started_by: principal.id,
      max_revisions: parsed.max_revisions,
      on_unverified: parsed.on_unverified,
      air: promoted?.air ?? parsed.air,
      ...(promoted ? { promotion: promoted.promotion } : {}),
      genesis: sessionGenesis({
        session_id: sessionId,
        project: principal.project,
        mode: parsed.mode,
        objective: parsed.objective,
      }),
      created_at: this.now().toISOString(),
    };
    await this.canon.journal.append(
      principal.project,
      RELAY_SESSION.input(
        { session },
        {
          actor: principal.id,
          authority: { principal: principal.id, role: principal.role, project: principal.project },
          correlation_id: sessionId,
        },
      ),
    );
    return this.state(principal, sessionId);
  }

  /** The session, where it stands and its latest state. */
  async state(principal: Principal, sessionId: string): Promise<RelaySessionView> {
    const row = await this.#row(principal, sessionId);
    const last = await this.window(principal.project, sessionId, row.windows);
    const plan = await windowPlan(this, principal, row, last);
    return {
      session: row.session,
      status: row.status,
      windows: row.windows,
      cso: last?.cso ?? null,
      goal_state: plan.goal,
    };
  }

  async windows(principal: Principal, sessionId: string, after = 0): Promise<RelayWindowRecord[]> {
    await this.#row(principal, sessionId);
    return this.reader(principal.project).windows(sessionId, after);
  }

  /** What to send the model for the session's next window (CRP-030 §4, §6.2, §7.2). */
  async prepareWindow(
    principal: Principal,
    sessionId: string,
    options: WindowOptions & { maxTokens?: number; iap?: string | null } = {},
  ): Promise<PreparedWindow> {
    const row = await this.#open(principal, sessionId);
    const last = await this.window(principal.project, sessionId, row.windows);
    const policy = airPolicyOf(row.session, options);
    // The IAP the last window built, unless this window runs without AIR or only observes (§6.1);
    // a packet built only for the record (passive) is injected when this window asks for AIR.
    const packet = last?.quality.packet ?? null;
    let built = last?.quality.injection ?? (packet ? renderPacket(packet) || null : null);
    // This window's air-iap-budget bounds what it carries (§6.1), whatever budget the packet was
    // built with: a packet over it is cut down to it, as the budget would have cut it.
    if (built !== null && packet !== null && countTokens(built) > policy.iap_budget) {
      built = refitPacket(packet, policy.iap_budget).text || null;
    }
    const iap =
      options.iap !== undefined
        ? options.iap
        : policy.mode === 'adaptive' || policy.mode === 'aggressive'
          ? built
          : null;
    const prepared = await prepareWindow(this, principal, row, last, {
      ...(options.maxTokens ? { maxTokens: options.maxTokens } : {}),
      iap,
    });
    this.#prepared.set(`${principal.project} ${sessionId}`, {
      window_number: prepared.window_number,
      hash: prepared.context_packet_hash,
    });
    return prepared;
  }

  /**
   * Completes the session's next window with the model's output (and its structured contribution,
   * untrusted): merge, verify and repair (§5), invalidate (§3), revise or escalate (§6), seal (HMAC),
   * and commit the state to canon with the window record in one transaction.
   *
   * For a replay, the window journals the context packet's hash — `contextPacketHash` when given,
   * else the hash of the messages this process's last `prepareWindow` returned for this window,
   * else none — and the model's raw answers (`answers`, in the order the model gave them, the one
   * taken last) when given and within `ANSWER_LIMITS`.
   *
   * `window` is the number of the window the output was written for (`prepareWindow`'s
   * `window_number`): when given, the output completes that window or none — `CONFLICT` if it is
   * complete already or another is next — so a retry of a window whose first attempt got through
   * is refused instead of completing the window after it.
   */
  async completeWindow(
    principal: Principal,
    sessionId: string,
    output: string,
    contribution?: unknown,
    options: WindowOptions & {
      window?: number;
      model?: string | null;
      contextPacketHash?: string | null;
      answers?: readonly string[];
    } = {},
  ): Promise<CompletedWindow> {
    const row = await this.#open(principal, sessionId);
    if (options.window !== undefined) expectNext(row, options.window);
    const last = await this.window(principal.project, sessionId, row.windows);
    const prepared = this.#prepared.get(`${principal.project} ${sessionId}`);
    const hash =
      options.contextPacketHash ??
      (prepared?.window_number === row.windows + 1 ? prepared.hash : null);
    return completeWindow(this, principal, row, last, output, contribution, {
      model: options.model ?? null,
      air: airPolicyOf(row.session, options),
      contextPacketHash: hash,
      ...(options.answers === undefined ? {} : { answers: options.answers }),
    });
  }

  /** Stops a session whose window could not be verified (the `halt` of §5.2), with why. */
  async halt(
    principal: Principal,
    sessionId: string,
    window: CompletedWindow,
    reason: string,
  ): Promise<CompletedWindow> {
    const row = await this.#open(principal, sessionId);
    await this.canon.journal.append(
      principal.project,
      RELAY_HALT.input(
        {
          halt: {
            session_id: sessionId,
            window_number: row.windows + 1,
            reason,
            verification: window.verification,
          },
        },
        { actor: principal.id, authority: authority(principal), correlation_id: sessionId },
      ),
      { precondition: stillNext(principal.project, sessionId, row.windows) },
    );
    return { ...window, status: 'halted' };
  }

  /** Runs the session's windows through a model port until its goal is met or `maxWindows`. */
  run(
    principal: Principal,
    sessionId: string,
    model: ModelPort,
    options: RunOptions = {},
  ): Promise<RelayRun> {
    return runSession(this, principal, sessionId, model, options);
  }

  /** Checks the session's HMAC chain and every window's CSO against the journal. */
  async verify(principal: Principal, sessionId: string): Promise<ChainReport> {
    const row = await this.#row(principal, sessionId);
    return verifySession(this, principal.project, row);
  }

  async #row(principal: Principal, sessionId: string): Promise<SessionRow> {
    const row = await this.reader(principal.project).session(sessionId);
    if (!row) throw new CanonryError('UNKNOWN_SESSION', `no relay session ${sessionId}`);
    return row;
  }

  async #open(principal: Principal, sessionId: string): Promise<SessionRow> {
    if (principal.role === 'viewer')
      throw new CanonryError('FORBIDDEN', 'viewers cannot run a relay');
    const row = await this.#row(principal, sessionId);
    if (row.status !== 'active')
      throw new CanonryError('SESSION_CLOSED', `relay session ${sessionId} is ${row.status}`, {
        status: row.status,
      });
    return row;
  }
}

/** Refuses an output written for a window other than the session's next. */
function expectNext(row: SessionRow, window: number): void {
  if (!Number.isSafeInteger(window) || window < 1)
    throw new CanonryError('INVALID_ARGUMENT', 'window must be a positive integer', {
      field: 'window_number',
    });
  if (window !== row.windows + 1)
    throw new CanonryError(
      'CONFLICT',
      window <= row.windows
        ? `window ${window} of ${row.session.session_id} is complete already`
        : `window ${window} of ${row.session.session_id} is not next: window ${row.windows + 1} is`,
      { windows: row.windows, window_number: window },
    );
}

function newSessionId(): string {
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  return `rs-${Buffer.from(bytes).toString('hex')}`;
}
