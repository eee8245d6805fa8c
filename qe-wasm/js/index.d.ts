// Types of the `qe-engine` package: the classes and functions of the generated `qe_wasm.d.ts`
// (documented from the Rust source), and the error classes.
export {
  Game,
  Bot,
  botNames,
  expansionNames,
  pileNames,
  tileNames,
  errorCodes,
  version,
} from './qe_wasm.js';
export type {
  GameOptions,
  Command,
  Legal,
  BidRange,
  SpendBounds,
  Outcome,
  SeatOutcome,
  View,
  GameEvent,
} from './qe_wasm.js';
export { QeError, QePanic } from './qe-error.js';
/** @internal For the package's test of the panic boundary only. */
export function __panicForTests(): void;
