// Helpers of the package's tests: where the built package is, the core's own games, and JSON with
// exact integers (`web/exact-json.js`, shared with the page).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { parseExact } from '../web/exact-json.js';

export { parseExact, stringifyExact } from '../web/exact-json.js';

/** The repository's root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The built package (`scripts/build-npm`): `QE_NPM_DIR`, else `target/npm/qe-engine`. */
export const PKG_DIR = process.env.QE_NPM_DIR ?? path.join(ROOT, 'target', 'npm', 'qe-engine');

/** The package's entry module, imported. */
export async function loadPackage() {
  return import(new URL('index.js', `file://${path.resolve(PKG_DIR)}/`).href);
}

/** The core's own games (`cargo run -p qe-wasm --example core_outcomes`), one object a game. */
export function coreGames() {
  const out = execFileSync('cargo', ['run', '--quiet', '-p', 'qe-wasm', '--example', 'core_outcomes'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return out
    .trim()
    .split('\n')
    .map((line) => ({ line, game: parseExact(line) }));
}

/** The outcome's JSON text in a line of `core_outcomes` (it is the line's last field). */
export function outcomeText(line) {
  const at = line.indexOf(',"outcome":');
  return line.slice(at + ',"outcome":'.length, -1);
}
