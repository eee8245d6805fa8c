/**
 * A command, set-up or record the rules reject: `rule` is the rule ID the engine names
 * (`"R-AUC-3"`, or `"RECORD"` for the record format), `code` the stable number every binding
 * gives the same error, `index` the 0-based position of a record's illegal command.
 */
export class QeError extends Error {
  constructor(message: string, rule: string, code: number, index?: number);
  readonly name: 'QeError';
  readonly rule: string;
  readonly code: number;
  readonly index: number | undefined;
}

/** A panic inside the engine (a bug in qe). The module stays usable. */
export class QePanic extends Error {
  constructor(message: string);
  readonly name: 'QePanic';
}
