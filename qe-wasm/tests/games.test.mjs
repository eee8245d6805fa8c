// Whole games through the package against the core's own: the same seed and bots must give the
// same record and the same outcome, byte for byte, in 3, 4 and 5 players, with and without
// Commodities.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadPackage, coreGames, outcomeText, stringifyExact } from './helpers.mjs';

const { Game, Bot } = await loadPackage();
const games = coreGames();

test('the core example covers 3-5 players with and without Commodities', () => {
  const kinds = new Set(games.map(({ game }) => `${game.players}/${game.expansions.join('+')}`));
  assert.deepEqual([...kinds].sort(), ['3/', '3/commodities', '4/', '4/commodities', '5/', '5/commodities']);
});

for (const { line, game: core } of games) {
  const name = `${core.players} players${core.expansions.length ? ' + ' + core.expansions : ''}, seed ${core.seed}, ${core.bots.join(',')}`;
  test(`whole game as the core plays it: ${name}`, () => {
    const game = new Game({ players: Number(core.players), expansions: core.expansions, seed: core.seed });
    const bots = core.bots.map((botName, seat) => new Bot(botName, seat));
    let moves = 0;
    while (!game.isOver()) {
      const seat = game.toAct()[0];
      assert.equal(typeof seat, 'number');
      const command = bots[seat].decide(game, seat);
      assert.notEqual(command, null, `seat ${seat} must act`);
      if ('bid' in command) assert.equal(typeof command.bid, 'bigint', 'a bid is a BigInt');
      game.apply(command);
      moves++;
    }
    assert.ok(moves > 10);
    const outcome = game.outcome();
    for (const seat of outcome.seats) {
      assert.equal(typeof seat.spent, 'bigint', 'a total spent is a BigInt');
      assert.equal(typeof seat.seat, 'number');
    }
    assert.equal(stringifyExact(outcome), outcomeText(line));
    assert.equal(game.record(), core.record);
    // The record replays to the same outcome.
    assert.equal(stringifyExact(Game.fromRecord(game.record()).outcome()), outcomeText(line));
  });
}
