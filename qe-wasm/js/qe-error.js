// The error classes of the `qe-engine` package. The WebAssembly glue imports this module (as
// `./qe-error.js`) to throw `QeError`, and the entry module re-exports both classes.

/**
 * A command, set-up or record the rules reject. `rule` is the rule ID the engine names
 * (`"R-AUC-3"`, or `"RECORD"` for the record format), `code` the stable number every binding
 * gives the same error (qe-core's `ERROR_CODES`), and `index` the 0-based position of a record's
 * illegal command (else `undefined`). A rejected command changes nothing.
 */
export class QeError extends Error {
  constructor(message, rule, code, index) {
    super(message);
    this.name = 'QeError';
    this.rule = rule;
    this.code = code;
    this.index = index ?? undefined;
  }
}

/**
 * A panic inside the engine (a bug in qe; please report it with the message). The call that
 * panicked did not complete; other games and bots are unaffected and the module stays usable.
 */
export class QePanic extends Error {
  constructor(message) {
    super(message);
    this.name = 'QePanic';
  }
}
