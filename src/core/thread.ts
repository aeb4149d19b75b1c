import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** Module hooks for the source tree only: `./x.js` imports find `./x.ts`, which is transpiled. */
const SOURCE_HOOKS = `
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
let ts;
export async function initialize(data) { ts = (await import(data.typescript)).default; }
export async function resolve(specifier, context, next) {
  if (specifier.startsWith('.') && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) {
    const url = new URL(specifier, context.parentURL);
    if (!existsSync(fileURLToPath(url))) return { url: url.href.slice(0, -3) + '.ts', shortCircuit: true };
  }
  return next(specifier, context);
}
export async function load(url, context, next) {
  if (!url.endsWith('.ts')) return next(url, context);
  const fileName = fileURLToPath(url);
  const out = ts.transpileModule(await readFile(fileName, 'utf8'), {
    fileName,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
  });
  return { format: 'module', source: out.outputText, shortCircuit: true };
}
`;

/**
 * Starts a thread running the module at `entry`: a `.js` file of the compiled package, run as it
 * is; or, under the test runner, a `.ts` file of the source tree, which Node cannot run itself, so
 * the thread first registers {@link SOURCE_HOOKS} (TypeScript's own transpiler, a devDependency) and
 * then imports it: the tests run the same code the package ships.
 */
export function spawnThread(entry: URL): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry);
  const typescript = pathToFileURL(createRequire(import.meta.url).resolve('typescript')).href;
  const hooks = `data:text/javascript,${encodeURIComponent(SOURCE_HOOKS)}`;
  const bootstrap = `
    require('node:module').register(${JSON.stringify(hooks)}, { data: { typescript: ${JSON.stringify(typescript)} } });
    import(${JSON.stringify(entry.href)});
  `;
  return new Worker(bootstrap, { eval: true });
}
