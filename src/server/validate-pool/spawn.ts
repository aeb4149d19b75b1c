import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * Where the evaluation thread's program is: `worker.js` beside this file in the compiled package.
 * Under the test runner this file is TypeScript source, and Node cannot run `worker.ts` itself, so
 * the thread first registers {@link SOURCE_HOOKS} (TypeScript's own transpiler, a devDependency),
 * then imports the source: the tests run the same code the package ships.
 */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const ENTRY = new URL(FROM_SOURCE ? './worker.ts' : './worker.js', import.meta.url);

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

/** Starts one evaluation thread. */
export function spawnEvaluator(): Worker {
  if (!FROM_SOURCE) return new Worker(ENTRY);
  const typescript = pathToFileURL(createRequire(import.meta.url).resolve('typescript')).href;
  const hooks = `data:text/javascript,${encodeURIComponent(SOURCE_HOOKS)}`;
  const bootstrap = `
    require('node:module').register(${JSON.stringify(hooks)}, { data: { typescript: ${JSON.stringify(typescript)} } });
    import(${JSON.stringify(ENTRY.href)});
  `;
  return new Worker(bootstrap, { eval: true });
}
