// Type-checked (never run) by scripts/test-web with `tsc --strict` against the built package: the
// package's .d.ts files must compile and give the API its documented types (BigInt amounts,
// optional arguments, the error classes). `// @ts-expect-error` lines must be errors.
import { Bot, Game, QeError, QePanic, botNames, tileNames } from 'qe-engine';
import type { Command, Legal, Outcome, SpendBounds, View } from 'qe-engine';

const game = new Game({ players: 4, expansions: ['commodities'], seed: 42n });
const other = new Game();
const bot = new Bot('search:easy');
const command: Command | null = bot.decide(game, 0);
if (command) game.apply(command);
game.apply({ seat: 1, bid: 5n });
game.apply('{"seat":2,"bid":0}');
const legal: Legal = game.legal(3);
const min: bigint | undefined = legal.bid?.min;
const view: View = game.view(1n);
const bounds: SpendBounds[] = game.spendBounds(2);
const lower: bigint = bounds[0].lower;
const outcome: Outcome | null = game.outcome();
const spent: bigint | undefined = outcome?.seats[0].spent;
const names: string[] = botNames().concat(tileNames());
const seats: number[] = game.toAct();
try {
  Game.fromRecord(game.record() ?? '');
} catch (e) {
  if (e instanceof QeError) {
    const rule: string = e.rule;
    const code: number = e.code;
    const index: number | undefined = e.index;
    console.log(rule, code, index);
  } else if (e instanceof QePanic) {
    console.log(e.message);
  }
}
// @ts-expect-error a bid is a BigInt or a number, not a string
game.apply({ seat: 1, bid: '5' });
// @ts-expect-error an outcome's total spent is a BigInt
const wrong: number | undefined = game.outcome()?.seats[0].spent;
console.log(other, min, view.phase, lower, spent, names, seats, wrong);
