// Commands and arguments: the shared bad commands name the same rule and code as in every other
// binding; bids are exact BigInts up to 2^64 − 1; numbers that are not safe integers, wrong types
// and unknown names are clear errors; a rejected command changes nothing; a panic is an error,
// not the end of the module.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadPackage, parseExact, ROOT } from './helpers.mjs';

const pkg = await loadPackage();
const { Game, Bot, QeError, QePanic, botNames, expansionNames, pileNames, tileNames, errorCodes } = pkg;

const MAX = 2n ** 64n - 1n;
const bad = JSON.parse(fs.readFileSync(path.join(ROOT, 'qe-core/tests/data/bad_commands.json'), 'utf8'));

const isQe = (rule, code, extra = () => true) => (e) =>
  e instanceof QeError && e.rule === rule && e.code === code && e.message.startsWith(`${rule}: `) && extra(e);

test('bad_commands.json: every case, as JSON text, names its rule and code', () => {
  assert.ok(bad.cases.length >= 10);
  for (const { command, rule, code } of bad.cases) {
    const game = new Game({ players: 4, seed: 1 });
    const before = game.record();
    assert.throws(() => game.apply(command), isQe(rule, code), command);
    assert.equal(game.record(), before, `${command} changed the game`);
  }
});

test('bad_commands.json: every case an object can say, as an object, names its rule and code', () => {
  let objects = 0;
  for (const { command, rule, code } of bad.cases) {
    let object;
    try {
      object = parseExact(command, true);
    } catch {
      continue; // a key given twice, or a fraction (given as a number below)
    }
    objects++;
    const game = new Game({ players: 4, seed: 1 });
    assert.throws(() => game.apply(object), isQe(rule, code), command);
  }
  assert.ok(objects >= 10, `${objects} object cases`);
  // A fraction is the core's to reject, with its rule.
  assert.throws(() => new Game({ players: 4, seed: 1 }).apply({ seat: 1, bid: 2.5 }), isQe('R-AUC-4', 107));
});

test('bids are exact up to 2^64 - 1, as BigInts, in views, events and bounds', () => {
  const game = new Game({ players: 4, seed: 7 });
  const auctioneer = game.auctioneer;
  assert.equal(auctioneer, 0);
  game.apply({ seat: 0, bid: MAX });
  const range = game.legal(1).bid;
  assert.equal(range.min, 0n);
  assert.equal(range.max, MAX);
  assert.equal(range.forbidden, MAX);
  game.apply({ seat: 1, bid: MAX - 1n });
  game.apply({ seat: 2, bid: 0 });
  game.apply(`{"seat":3,"bid":${MAX - 2n}}`);
  const view = game.view(1);
  assert.equal(view.auctions[0].opening, MAX);
  assert.equal(typeof view.auctions[0].opening, 'bigint');
  // Seat 0 won at the opening bid: the price of the auctioneer's own win is public (R-VIS-4).
  assert.equal(view.auctions[0].winner, 0);
  assert.equal(view.auctions[0].price, MAX);
  const bidOf = (viewer, seat) => game.events(viewer).find((e) => e.event === 'bid' && e.seat === seat);
  assert.equal(bidOf(1, 1).amount, MAX - 1n, 'seat 1 sees its own bid (R-VIS-2)');
  assert.equal(bidOf(0, 3).amount, MAX - 2n, 'the auctioneer sees every bid (R-VIS-3)');
  assert.equal(bidOf(2, 3).amount, null, 'seat 2 does not see seat 3 bid (R-VIS-1)');
  const bounds = game.spendBounds(2);
  assert.equal(bounds.length, 4);
  assert.equal(bounds[0].lower, MAX);
  assert.equal(typeof bounds[0].upper, 'bigint');
  // Seat 2 may not see seat 3's bid (R-VIS-1).
  assert.ok(!JSON.stringify(game.view(2), (_, v) => (typeof v === 'bigint' ? String(v) : v)).includes(String(MAX - 2n)));
});

test('a bid past 2^64 - 1 is the rule R-AUC-4, as a BigInt or as text', () => {
  const game = new Game({ players: 3, seed: 1 });
  assert.throws(() => game.apply({ seat: 0, bid: MAX + 1n }), isQe('R-AUC-4', 107));
  assert.throws(() => game.apply({ seat: 0, bid: -1n }), isQe('R-AUC-4', 107));
});

test('a number that is not a safe integer is a RangeError, never rounded', () => {
  const game = new Game({ players: 3, seed: 1 });
  const before = game.record();
  for (const bid of [2 ** 53, 2 ** 64, -(2 ** 60), NaN, Infinity]) {
    assert.throws(() => game.apply({ seat: 0, bid }), (e) => e instanceof RangeError && e.message.includes('command.bid'), String(bid));
  }
  assert.throws(() => game.apply({ seat: 0, bid: 2 ** 53 }), /BigInt/);
  assert.equal(game.record(), before);
  // The largest safe integer is a number like any other.
  game.apply({ seat: 0, bid: Number.MAX_SAFE_INTEGER });
  assert.equal(game.view(1).auctions[0].opening, BigInt(Number.MAX_SAFE_INTEGER));
  assert.throws(() => new Game({ players: 3, seed: 2 ** 60 }), RangeError);
  assert.throws(() => new Game({ players: 3.5 }), RangeError);
  assert.throws(() => game.view(2 ** 60), RangeError);
  assert.throws(() => new Bot('value', 1.5), RangeError);
});

test('seeds are BigInts or safe integers from 0 to 2^64 - 1, the same game either way', () => {
  const a = new Game({ players: 4, seed: 42 });
  const b = new Game({ players: 4, seed: 42n });
  assert.equal(a.record(), b.record());
  assert.equal(a.seed, 42n);
  const top = new Game({ players: 4, seed: MAX });
  assert.equal(top.seed, MAX);
  assert.throws(() => new Game({ players: 4, seed: MAX + 1n }), RangeError);
  assert.throws(() => new Game({ players: 4, seed: -1 }), RangeError);
  assert.notEqual(new Game({ players: 4 }).seed, undefined);
});

test('bad options, seats and names are clear errors', () => {
  assert.throws(() => new Game({ players: 6 }), isQe('R-SET-1', 205));
  assert.throws(() => new Game({ players: 300n }), isQe('R-SET-1', 205));
  assert.throws(() => new Game({ players: '4' }), TypeError);
  assert.throws(() => new Game({ player: 4 }), (e) => e instanceof TypeError && /unknown option "player"/.test(e.message));
  assert.throws(() => new Game({ expansions: ['tariffs'] }), (e) => e instanceof RangeError && /tariffs.*commodities/.test(e.message));
  assert.throws(() => new Game({ expansions: 'commodities' }), TypeError);
  assert.throws(() => new Game(4), TypeError);
  const game = new Game({ players: 4, seed: 3 });
  assert.throws(() => game.view(4), isQe('R-AUC-12', 101));
  assert.throws(() => game.view(-1), isQe('R-AUC-12', 101));
  assert.throws(() => game.view('1'), TypeError);
  assert.throws(() => game.legal(2n ** 70n), RangeError);
  assert.deepEqual(game.view(1n), game.view(1));
  assert.throws(() => new Bot('oracle'), (e) => e instanceof RangeError && e.message.includes('search:hard'));
  assert.throws(() => new Bot(7), TypeError);
  assert.throws(() => game.apply(42), TypeError);
  assert.throws(() => game.apply({ seat: 0, bid: () => 1 }), TypeError);
  assert.throws(() => Game.fromRecord('{"format":"qe-record/2"}'), (e) => e instanceof QeError && e.rule === 'RECORD' && e.code === 210);
});

test('an object holding itself is the size error of the command reader, not a hang', () => {
  const game = new Game({ players: 4, seed: 3 });
  const command = { seat: 0, bid: 5, more: [] };
  command.more.push(command);
  assert.throws(() => game.apply(command), (e) => (e instanceof QeError && e.code === 118) || e instanceof RangeError);
  const long = { seat: 0, bid: 5, pad: 'x'.repeat(5000) };
  assert.throws(() => game.apply(long), isQe('R-AUC-12', 118, (e) => e.message.includes('4096')));
});

test('every bot name of the core plays, search levels included', () => {
  assert.deepEqual(botNames(), ['random', 'miser', 'value', 'search', 'search:easy', 'search:medium', 'search:hard', 'search:mixed']);
  for (const name of botNames()) {
    const game = new Game({ players: 5, expansions: ['commodities'], seed: 11 });
    const bots = [0, 1, 2, 3, 4].map((s) => new Bot(name, s));
    assert.equal(bots[2].name, name);
    assert.equal(bots[2].seed, 2n);
    for (let i = 0; i < 12 && !game.isOver(); i++) {
      const seat = game.toAct()[0];
      const command = bots[seat].decide(game, seat);
      assert.equal(command.seat, seat);
      game.apply(command);
    }
  }
  const over = Game.fromRecord(new Game({ players: 3, seed: 1 }).record());
  assert.equal(new Bot('value').decide(over, 1), null, 'a seat with nothing to do gets null');
});

test('names and codes come from the core', () => {
  assert.deepEqual(expansionNames(), ['commodities']);
  assert.deepEqual(pileNames(), ['gold', 'oil', 'crypto']);
  // A view's tiles mask names tiles in this order: the winner of turn 0 holds the tile revealed.
  const game = new Game({ players: 3, seed: 2 });
  const tile = game.view(0).tile;
  game.apply({ seat: 0, bid: 5 });
  game.apply({ seat: 1, bid: 9 });
  game.apply({ seat: 2, bid: 0 });
  const mask = game.view(1).seats[1].tiles;
  assert.deepEqual(tileNames().filter((_, i) => (mask >> i) & 1), [tile]);
  const codes = errorCodes();
  assert.equal(codes.length, 30);
  assert.deepEqual(codes.find((c) => c.code === 106).name, 'BID_EQUALS_OPENING');
});

test('a panic is a QePanic, and the module goes on working', () => {
  assert.throws(() => pkg.__panicForTests(), (e) => e instanceof QePanic && e.message.includes('asked for this panic'));
  const game = new Game({ players: 3, seed: 5 });
  const bots = [0, 1, 2].map((s) => new Bot('value', s));
  while (!game.isOver()) {
    const seat = game.toAct()[0];
    game.apply(bots[seat].decide(game, seat));
  }
  assert.equal(game.outcome().seats.length, 3);
});
