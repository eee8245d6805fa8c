// The no-leak twin check on views: two games that differ only in a fact one seat may not see give
// that seat the same view, event stream and spend bounds after every command, while a seat that
// sees the fact sees the games differ (so the check can fail).
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadPackage, parseExact, stringifyExact } from './helpers.mjs';

const { Game, Bot } = await loadPackage();

/** Everything `seat` is handed, as one text. */
const seen = (game, seat) =>
  stringifyExact({ view: game.view(seat), events: game.events(seat), bounds: game.spendBounds(seat), legal: game.legal(seat) });

/**
 * Plays `a` and `b` on with the commands the value bots choose in `a`, checking after every one
 * (until the end, where everything is revealed, R-VIS-7) that `blind` sees the same in both and
 * that `sighted` sees a difference at least once.
 */
function playTwins(a, b, blind, sighted) {
  const bots = Array.from({ length: a.players }, (_, s) => new Bot('value', s));
  let differed = false;
  let steps = 0;
  while (!a.isOver()) {
    assert.equal(seen(a, blind), seen(b, blind), `seat ${blind} tells the twins apart after ${steps} commands`);
    assert.equal(stringifyExact(a.publicView()), stringifyExact(b.publicView()));
    differed ||= seen(a, sighted) !== seen(b, sighted);
    const seat = a.toAct()[0];
    const command = bots[seat].decide(a, seat);
    a.apply(command);
    b.apply(command);
    steps++;
  }
  assert.ok(differed, `seat ${sighted} never saw the difference: the check could not fail`);
  assert.ok(steps > 20);
}

for (const players of [3, 4, 5]) {
  for (const expansions of [[], ['commodities']]) {
    const label = `${players} players${expansions.length ? ' + commodities' : ''}`;

    test(`twins differing in a losing secret bid (${label})`, () => {
      // Turn 0: seat 0 opens; seat 1 bids 3 or 4 and loses to seat 2's 20. Seat 1's amount is
      // seen by seat 1 and the auctioneer (R-VIS-2, R-VIS-3) and by no one else (R-VIS-1).
      const a = new Game({ players, expansions, seed: 9 });
      const b = new Game({ players, expansions, seed: 9 });
      for (const g of [a, b]) g.apply({ seat: 0, bid: 10 });
      a.apply({ seat: 1, bid: 3 });
      b.apply({ seat: 1, bid: 4n });
      for (const g of [a, b]) {
        g.apply({ seat: 2, bid: 20 });
        for (let s = 3; s < players; s++) g.apply({ seat: s, bid: 0 });
      }
      playTwins(a, b, players - 1, 1);
    });

    test(`twins differing in another seat's industry token (${label})`, () => {
      // The records differ only in which industry seats 0 and 1 were dealt (R-VIS-2).
      const base = parseExact(new Game({ players, expansions, seed: 4 }).record());
      const swapped = structuredClone(base);
      [swapped.industry_tokens[0], swapped.industry_tokens[1]] = [base.industry_tokens[1], base.industry_tokens[0]];
      playTwins(Game.fromRecord(base), Game.fromRecord(swapped), 2, 0);
    });
  }
}
