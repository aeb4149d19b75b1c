import { emit } from '../io.js';
import { runRelay } from './relay.js';

/** The demo's document: five windows on four sections, one lapse and one rewrite on the way. */
const SECTIONS = ['Context', 'Constraints', 'Decision', 'Consequences'];

/**
 * `canonry demo relay`: a DOCUMENT session written by the scripted author in which window 3 forgets
 * a prior fact (verification re-injects it: preservation below 1, repaired=1) and window 4 rewrites
 * the Decision section, superseding the fact decision d_s3_decision rests on — so window 5 is a
 * revision window that revises it (§6.2). Then what a person should look at.
 */
export async function relayDemo(opts: { data?: string; db?: string; json?: boolean }) {
  const json = opts.json === true;
  if (!json) process.stdout.write('A design note written across context windows (CRP-030):\n\n');
  const summary = await runRelay(
    {
      ...opts,
      mode: 'DOCUMENT',
      objective: 'A design note for moving the billing service to two regions',
      sections: SECTIONS.join(','),
    },
    { plot: { dropAt: 3, supersedeAt: 4 }, linesTo: process.stdout },
  );
  const repaired = summary.windows.filter((w) => w.repaired > 0);
  const revised = summary.windows.filter((w) => w.revisions > 0);
  const data = opts.data ? ` --data ${opts.data}` : '';
  const id = summary.session_id;
  emit(json, summary, () => [
    '',
    `session ${id} (project ${summary.project}): ${summary.status} after ${summary.windows.length} windows`,
    ...repaired.map(
      (w) =>
        `  repair: window ${w.window_number} dropped ${w.repaired} prior fact${w.repaired > 1 ? 's' : ''}; verification re-injected ${w.repaired > 1 ? 'them' : 'it'} (preservation ${(Math.floor(w.preservation * 100 + 1e-9) / 100).toFixed(2)})`,
    ),
    ...revised.map(
      (w) =>
        `  revision: window ${w.window_number} revised ${w.revision_target} after the fact it rested on was superseded`,
    ),
    '',
    'What to look at:',
    `  canonry relay show ${id}${data}      the windows, what each repaired or revised, the latest CSO`,
    `  canonry relay verify ${id}${data}    the HMAC chain and every CSO against the journal`,
    `  canon notes relay.${id}.* in project ${summary.project}: each fact and decision, committed as relay:${id}`,
    `    canonry tokens create --project ${summary.project} --principal you --role viewer${data}`,
    `    canonry canon objects --token <token>${data}`,
  ]);
}
