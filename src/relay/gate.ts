import { DEFAULT_GATE_PROTOCOL } from '../canon/index.js';
import type { AgenticProtocol } from '../kernel/index.js';

const v = (name: string) => ({ var: name });

/**
 * The gate a relay session's state goes through (LCSM §6, evaluated by the kernel and signed like
 * every gate verdict). A session's facts and decisions are the working state of its agent: the
 * agent may create, revise and supersede them (`fact` and `decision` notes in the session's own
 * namespace, which only the relay writes) without a person confirming each one — that is what lets a
 * relay run. Everything else is the project's default gate, rule for rule: S3 (a decision flagged
 * for `oversight` after too many revisions, CRP-030 §6.3) still needs the owner, and a change of an
 * object's type still needs confirmation.
 */
export const RELAY_GATE_PROTOCOL: AgenticProtocol = {
  ...DEFAULT_GATE_PROTOCOL,
  slug: 'canonry.relay.gate',
  version: '1.0',
  description:
    'CRP-030 relay state: a session agent writes its own facts and decisions; otherwise the LCSM §6 stakes gate.',
  rules: [
    ...DEFAULT_GATE_PROTOCOL.rules.slice(0, 2),
    {
      label: 'AUTO_COMMIT',
      condition: {
        and: [
          { '==': [v('role'), 'agent'] },
          { or: [{ '==': [v('object_type'), 'fact'] }, { '==': [v('object_type'), 'decision'] }] },
          {
            or: [
              { '==': [v('intent'), 'create'] },
              { '==': [v('intent'), 'update'] },
              { '==': [v('intent'), 'supersede'] },
            ],
          },
          { '!': v('type_changed') },
        ],
      },
    },
    ...DEFAULT_GATE_PROTOCOL.rules.slice(2),
  ],
};
