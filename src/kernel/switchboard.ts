import {
  CanonryError,
  type ContentHash,
  fail,
  isContentHash,
  ok,
  type Result,
} from '../core/index.js';

/** What happened to an objective's artifact: a verdict class, or ERROR when the objective failed. */
export type RouteStatus = 'CONFORMANT' | 'INVALID_REQUEST' | 'INTERPRETATION_DRIFT' | 'ERROR';

/** One row of the routing table: (objective, status, label) → next objective or terminal. */
export interface SwitchboardRoute {
  readonly objective: string;
  readonly status: RouteStatus;
  readonly label?: string | null;
  readonly next: string;
}

/** The switchboard as data (TCP/AP §8). */
export interface SwitchboardSpec {
  readonly start: string;
  /** Each objective and the hash of the agentic protocol its artifacts are judged by. */
  readonly objectives: Readonly<Record<string, { readonly protocol: ContentHash }>>;
  readonly terminals: readonly string[];
  /** Where every unmapped (objective, status, label) goes: deny by default. */
  readonly safe_terminal: string;
  readonly routes: readonly SwitchboardRoute[];
}

/** A problem found while validating a switchboard, with a JSON pointer into it. */
export interface SwitchboardIssue {
  readonly path: string;
  readonly message: string;
}

/** The outcome of routing one step. */
export interface RouteDecision {
  readonly next: string;
  /** False when no row matched and the safe terminal was taken. */
  readonly mapped: boolean;
  readonly terminal: boolean;
}

const STATUSES: readonly RouteStatus[] = [
  'CONFORMANT',
  'INVALID_REQUEST',
  'INTERPRETATION_DRIFT',
  'ERROR',
];
const NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

/**
 * A validated, total, deny-by-default routing table. Only a CONFORMANT verdict can lead to another
 * objective; every other status, and every combination nobody mapped, ends at a terminal.
 */
export class Switchboard {
  readonly #routes: Map<string, string>;
  readonly #terminals: Set<string>;

  private constructor(readonly spec: SwitchboardSpec) {
    this.#terminals = new Set(spec.terminals);
    this.#routes = new Map(spec.routes.map((r) => [key(r.objective, r.status, r.label), r.next]));
  }

  /**
   * Validates `input` and builds the switchboard; throws INVALID_SWITCHBOARD listing every issue.
   * `labelsOf` gives the labels of a protocol hash so CONFORMANT rows can be checked against them.
   */
  static from(
    input: unknown,
    labelsOf?: (protocol: ContentHash) => readonly string[] | undefined,
  ): Switchboard {
    const checked = validateSwitchboard(input, labelsOf);
    if (!checked.ok) {
      const first = checked.issues[0]!;
      throw new CanonryError('INVALID_SWITCHBOARD', `${first.path}: ${first.message}`, {
        issues: checked.issues,
      });
    }
    return new Switchboard(checked.value);
  }

  /** Where (objective, status, label) goes; the safe terminal when nothing is mapped. */
  route(objective: string, status: RouteStatus, label: string | null): RouteDecision {
    const next = this.#routes.get(key(objective, status, label));
    if (next === undefined) return { next: this.spec.safe_terminal, mapped: false, terminal: true };
    return { next, mapped: true, terminal: this.#terminals.has(next) };
  }

  /** True when `name` is a terminal. */
  isTerminal(name: string): boolean {
    return this.#terminals.has(name);
  }
}

function key(objective: string, status: RouteStatus, label: string | null | undefined): string {
  return `${objective}\u0000${status}\u0000${status === 'CONFORMANT' ? (label ?? '') : ''}`;
}

/** Checks a switchboard without throwing; collects every issue. */
export function validateSwitchboard(
  input: unknown,
  labelsOf?: (protocol: ContentHash) => readonly string[] | undefined,
): Result<SwitchboardSpec, SwitchboardIssue> {
  const issues: SwitchboardIssue[] = [];
  const add = (path: string, message: string) => issues.push({ path, message });
  if (!isRecord(input)) return fail({ path: '', message: 'must be an object' });
  const allowed = ['start', 'objectives', 'terminals', 'safe_terminal', 'routes'];
  for (const k of Object.keys(input)) if (!allowed.includes(k)) add(`/${k}`, 'unknown field');

  const objectives = isRecord(input.objectives) ? input.objectives : {};
  if (!isRecord(input.objectives) || Object.keys(objectives).length === 0) {
    add('/objectives', 'must be a non-empty object');
  }
  for (const [name, decl] of Object.entries(objectives)) {
    const path = `/objectives/${name}`;
    if (!NAME.test(name)) add(path, 'objective names are letters, digits, _ . - (max 64)');
    if (!isRecord(decl) || !isContentHash(decl.protocol) || Object.keys(decl).length !== 1) {
      add(path, 'must be { "protocol": "sha256:…" }');
    } else if (labelsOf && labelsOf(decl.protocol) === undefined) {
      add(`${path}/protocol`, `unknown protocol ${decl.protocol}`);
    }
  }
  const terminals = stringArray(input.terminals);
  if (terminals === null || terminals.length === 0) add('/terminals', 'must be a non-empty list');
  const terminalSet = new Set(terminals ?? []);
  if (terminals && terminalSet.size !== terminals.length) add('/terminals', 'duplicate terminal');
  for (const t of terminalSet) {
    if (!NAME.test(t)) add('/terminals', `bad terminal name ${JSON.stringify(t)}`);
    if (Object.hasOwn(objectives, t)) add('/terminals', `${t} is both an objective and a terminal`);
  }
  if (typeof input.start !== 'string' || !Object.hasOwn(objectives, input.start)) {
    add('/start', 'must name an objective');
  }
  if (typeof input.safe_terminal !== 'string' || !terminalSet.has(input.safe_terminal)) {
    add('/safe_terminal', 'must name a terminal');
  }
  checkRoutes(input.routes, objectives, terminalSet, labelsOf, add);
  if (issues.length > 0) return fail(...issues);
  checkReachable(input as unknown as SwitchboardSpec, add);
  return issues.length > 0 ? fail(...issues) : ok(input as unknown as SwitchboardSpec);
}

interface RouteContext {
  readonly objectives: Record<string, unknown>;
  readonly terminals: Set<string>;
  readonly labelsOf: ((protocol: ContentHash) => readonly string[] | undefined) | undefined;
  readonly add: (path: string, message: string) => void;
}

function checkRoutes(
  routes: unknown,
  objectives: Record<string, unknown>,
  terminals: Set<string>,
  labelsOf: ((protocol: ContentHash) => readonly string[] | undefined) | undefined,
  add: (path: string, message: string) => void,
): void {
  if (!Array.isArray(routes)) {
    add('/routes', 'must be a list');
    return;
  }
  const seen = new Set<string>();
  const context = { objectives, terminals, labelsOf, add };
  for (let i = 0; i < routes.length; i++) {
    const k = checkRoute(routes[i], `/routes/${i}`, context);
    if (k === null) continue;
    if (seen.has(k)) add(`/routes/${i}`, 'duplicate (objective, status, label)');
    seen.add(k);
  }
}

/** Checks one row; returns its routing key, or null when it is too broken to have one. */
function checkRoute(route: unknown, path: string, context: RouteContext): string | null {
  const { objectives, terminals, labelsOf, add } = context;
  if (!isRecord(route)) {
    add(path, 'must be an object');
    return null;
  }
  const extra = Object.keys(route).filter(
    (k) => !['objective', 'status', 'label', 'next'].includes(k),
  );
  if (extra.length > 0) add(`${path}/${extra[0]}`, 'unknown field');
  const { objective, status, label, next } = route;
  if (typeof objective !== 'string' || !Object.hasOwn(objectives, objective)) {
    add(`${path}/objective`, 'must name an objective');
    return null;
  }
  if (!STATUSES.includes(status as RouteStatus)) {
    add(`${path}/status`, `must be one of ${STATUSES.join(', ')}`);
    return null;
  }
  if (status === 'CONFORMANT') {
    if (typeof label !== 'string') {
      add(`${path}/label`, 'a CONFORMANT row needs a label');
      return null;
    }
    const decl = objectives[objective] as { protocol?: ContentHash };
    const labels = decl.protocol && labelsOf ? labelsOf(decl.protocol) : undefined;
    if (labels && !labels.includes(label)) {
      add(`${path}/label`, `label ${label} is not declared by ${objective}'s protocol`);
    }
  } else if (label !== undefined && label !== null) {
    add(`${path}/label`, 'only CONFORMANT rows carry a label');
  }
  if (typeof next !== 'string' || (!Object.hasOwn(objectives, next) && !terminals.has(next))) {
    add(`${path}/next`, 'must name an objective or a terminal');
  } else if (status !== 'CONFORMANT' && !terminals.has(next)) {
    add(`${path}/next`, 'only a conformant verdict may lead to another objective');
  }
  return key(objective, status as RouteStatus, label as string | null | undefined);
}

function checkReachable(spec: SwitchboardSpec, add: (path: string, message: string) => void) {
  const reached = new Set([spec.start]);
  const queue = [spec.start];
  while (queue.length > 0) {
    const from = queue.shift()!;
    for (const r of spec.routes) {
      if (r.objective === from && Object.hasOwn(spec.objectives, r.next) && !reached.has(r.next)) {
        reached.add(r.next);
        queue.push(r.next);
      }
    }
  }
  for (const name of Object.keys(spec.objectives)) {
    if (!reached.has(name)) add(`/objectives/${name}`, 'unreachable from start');
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringArray(value: unknown): string[] | null {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : null;
}
