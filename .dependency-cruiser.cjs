/**
 * canonry's module rules, checked by `npx depcruise src` in `.ci/run` (docs/architecture.md,
 * "Modules"). A module is a folder of src/; its public face is its index.ts. Every rule has a name
 * so that a wrong import fails the build with a message that says which rule it broke.
 *
 * Directions (a module may import only the modules listed for it; `app` is the composition root,
 * `operations` declares every operation once, and the faces sit on top):
 *   core ─► trust ─► kernel                 pure: no storage, no I/O
 *   core ─► store ─► journal ─► canon ─► relay   (relay also uses dpe ─► air, and models)
 *            └─► auth        journal ─► evolution (ports; uses kernel, trust — never canon or relay)
 *   core ─► models
 *   app ─► operations ─► server | cli | mcp
 */
const { join } = require('node:path');

/** What each module may import besides itself. Planned modules have their rules already. */
const ALLOWED = {
  core: [],
  trust: ['core'],
  kernel: ['core', 'trust'],
  store: ['core'],
  journal: ['core', 'store', 'trust'],
  auth: ['core', 'store'],
  models: ['core'],
  canon: ['core', 'trust', 'kernel', 'store', 'journal', 'models'],
  dpe: ['core', 'models'],
  air: ['core', 'models', 'dpe'],
  relay: ['core', 'trust', 'kernel', 'store', 'journal', 'models', 'canon', 'dpe', 'air'],
  evolution: ['core', 'trust', 'kernel', 'store', 'journal', 'models'],
};
const BELOW_APP = Object.keys(ALLOWED)
  .concat('auth')
  .filter((m, i, all) => all.indexOf(m) === i);
ALLOWED.app = BELOW_APP;
ALLOWED.operations = [...BELOW_APP, 'app'];
const FACES = ['server', 'cli', 'mcp'];
for (const face of FACES) ALLOWED[face] = [...BELOW_APP, 'app', 'operations'];

const any = (modules) => `^src/(${modules.join('|')})/`;

/**
 * The process entry: `src/cli/main.ts` is where one process joins the faces — it loads the HTTP face
 * (with MCP mounted at /mcp) and the MCP face lazily and hands them to the `serve` and `mcp` commands
 * (src/cli/faces.ts). It alone may import the other faces, through their index.ts; the rest of the
 * CLI never does (src/cli/README.md).
 */
const PROCESS_ENTRY = '^src/cli/main\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    // Generic first, so the named special cases below say more precisely what went wrong.
    ...Object.entries(ALLOWED).map(([module, allowed]) => ({
      name: `${module}-imports-only-${allowed.length === 0 ? 'itself' : 'below-it'}`,
      comment: `${module} may import ${allowed.length === 0 ? 'no other module' : allowed.join(', ')} (docs/architecture.md, "Modules")`,
      severity: 'error',
      from: {
        path: `^src/${module}/`,
        ...(module === 'cli' ? { pathNot: PROCESS_ENTRY } : {}),
      },
      to: {
        path: '^src/[^/]+/',
        pathNot: [`^src/${module}/`, ...(allowed.length ? [any(allowed)] : [])],
      },
    })),
    {
      name: 'no-module-internals',
      comment:
        "import another module through its index.ts only ('../journal/index.js', not '../journal/journal.js'); files and subfolders behind it are its own",
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: { path: '^src/[^/]+/', pathNot: ['^src/$1/', '^src/[^/]+/index\\.ts$'] },
    },
    {
      name: 'root-imports-module-faces',
      comment: "src/index.ts re-exports each module's index.ts, never a module's internals",
      severity: 'error',
      from: { path: '^src/index\\.ts$' },
      to: { path: '^src/[^/]+/', pathNot: '^src/[^/]+/index\\.ts$' },
    },
    {
      name: 'faces-never-import-each-other',
      comment:
        'server, cli and mcp are faces over operations and app; one face never reaches another (the shared part belongs in operations)',
      severity: 'error',
      from: { path: '^src/(server|cli|mcp)/', pathNot: PROCESS_ENTRY },
      to: { path: '^src/(server|cli|mcp)/', pathNot: '^src/$1/' },
    },
    {
      name: 'process-entry-joins-faces-by-index',
      comment:
        'src/cli/main.ts may import the server and MCP faces, through their index.ts only; otherwise it follows the CLI rules',
      severity: 'error',
      from: { path: PROCESS_ENTRY },
      to: {
        path: '^src/[^/]+/',
        pathNot: ['^src/cli/', any(ALLOWED.cli), '^src/(server|mcp)/index\\.ts$'],
      },
    },
    {
      name: 'kernel-never-reaches-storage',
      comment:
        'the kernel is pure: it decides from (artifact, protocol) and never touches store or journal',
      severity: 'error',
      from: { path: '^src/kernel/' },
      to: { path: '^src/(store|journal)/' },
    },
    {
      name: 'journal-never-reaches-canon',
      comment:
        'the journal is below canon: canon plugs its projections in, the journal never imports canon',
      severity: 'error',
      from: { path: '^src/journal/' },
      to: { path: '^src/canon/' },
    },
    {
      name: 'evolution-never-reaches-canon-or-relay',
      comment: 'evolution defines target and replayer ports; app plugs canon and relay into them',
      severity: 'error',
      from: { path: '^src/evolution/' },
      to: { path: '^src/(canon|relay)/' },
    },
    {
      name: 'drivers-only-in-store',
      comment:
        'only src/store talks to a database driver; everything else goes through the Store port',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/store/' },
      to: { path: '(^|/)node_modules/(better-sqlite3|pg|pg-[^/]+)/' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'an import that resolves to nothing is a typo or a missing dependency',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: join(__dirname, 'tsconfig.json') },
    enhancedResolveOptions: {
      extensions: ['.ts', '.js', '.json'],
      conditionNames: ['import', 'require', 'node', 'default'],
      exportsFields: ['exports'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
