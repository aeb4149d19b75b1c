import type { CanonryRuntime } from '../app/index.js';
import type { TokenRole } from '../auth/index.js';
import type { Principal } from '../canon/index.js';
import type { ErrorCode, JsonObject } from '../core/index.js';

/** A query parameter: its name, what it does, and its JSON Schema (values arrive as strings). */
export interface QueryDoc {
  readonly name: string;
  readonly description: string;
  readonly schema: JsonObject;
}

/** What an operation's handler is given: the principal from the token and the raw, unchecked inputs. */
export interface OperationContext {
  readonly runtime: CanonryRuntime;
  readonly principal: Principal;
  /** The project: the token's, already checked. */
  readonly project: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  /** The body, already held to `body.schema` (see `checkBody`); the handler parses it to its types. */
  readonly body: unknown;
  /** The request's `CRP-Safety-Policy` header (CRP-018 §6.1), where the face has one (HTTP). */
  readonly safetyPolicy: string | null;
}

/** How the command line names an operation, when it has a command of its own. */
export interface CliBinding {
  /** The command under `canonry canon`, with positional path parameters: `approve <id>`. */
  readonly command: string;
  readonly description: string;
  /** Flag spellings that differ from the generated `--field-name <value>`, by body or query field. */
  readonly flags?: Readonly<Record<string, string>>;
}

/**
 * One operation of a project, declared once. The HTTP face registers a route from it (method, URL,
 * least role) and documents it in OpenAPI; the CLI makes a command of it, run against a data
 * directory or a server; the MCP face makes a tool of it. `body.schema` is the one description of
 * the input: the OpenAPI request body, the checks every face runs before the handler (generated from
 * it), the CLI's options and the MCP tool's input schema.
 */
export interface Operation {
  /** The operation's name: the OpenAPI operationId, the MCP tool's name. */
  readonly operationId: string;
  readonly summary: string;
  readonly tag: string;
  readonly minRole: TokenRole;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The HTTP URL, under `/v1/projects/:project`. */
  readonly url: string;
  /** Path parameters besides `project`, with their descriptions. */
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: readonly QueryDoc[];
  /** The request body; operations without one refuse any body. */
  readonly body?: {
    readonly schema: JsonObject;
    readonly required: boolean;
    /** A valid body, used by the docs and by the tests that must reach every operation. */
    readonly example: unknown;
    /** The code a body that fails its schema is refused with (INVALID_BODY unless canon names one). */
    readonly invalid?: ErrorCode;
  };
  readonly status: number;
  readonly response: JsonObject;
  /** The error codes the operation can answer with (besides the auth and transport ones). */
  readonly errors: readonly ErrorCode[];
  /**
   * Faces for agents (MCP): `hidden` keeps it off the tool list (token secrets); `{ minRole }`
   * lists it only for tokens of at least that role (approvals and reviews are a person's).
   */
  readonly mcp?: 'hidden' | { readonly minRole: TokenRole };
  /** The MCP tool's name when it is not the operationId (the relay's spec names its tools). */
  readonly mcpName?: string;
  /**
   * Response headers the operation sets from its result. The HTTP face sends them; the other faces
   * return the result, which carries them itself. `documented`: name → description (OpenAPI).
   */
  readonly responseHeaders?: {
    readonly documented: Readonly<Record<string, string>>;
    readonly of: (result: unknown) => Readonly<Record<string, string>>;
  };
  readonly cli?: CliBinding;
  readonly handler: (ctx: OperationContext) => Promise<unknown>;
}

/** An operation's input as every face hands it over: path parameters, query values, body. */
export interface OperationInput {
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  /** The `CRP-Safety-Policy` request header, when the face has one. */
  readonly safetyPolicy?: string | null;
}

/** Runs operations as one principal: in process over a runtime, or over HTTP against a server. */
export interface Invoker {
  invoke(op: Operation, input: OperationInput): Promise<unknown>;
  /** Releases what the invoker holds (the runtime it opened); idempotent. */
  close(): Promise<void>;
}
