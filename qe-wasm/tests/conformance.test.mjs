// The conformance suite (conformance/, see its README) replayed through `Game.fromRecord`, both as
// JSON text and as an object with exact integers (BigInts).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadPackage, parseExact, ROOT } from './helpers.mjs';

const { Game, QeError } = await loadPackage();

const cases = ['named', 'generated'].flatMap((dir) => {
  const full = path.join(ROOT, 'conformance', dir);
  return fs
    .readdirSync(full)
    .filter((f) => f.endsWith('.json') && !f.endsWith('.expect.json'))
    .sort()
    .map((f) => ({ name: `${dir}/${f.slice(0, -5)}`, file: path.join(full, f) }));
});

/** The outcome field by field: numbers of the expectation (BigInts here) equal the JS values. */
function checkOutcome(actual, expected, name) {
  assert.equal(actual.seats.length, expected.seats.length, name);
  expected.seats.forEach((want, i) => {
    const got = actual.seats[i];
    for (const [key, value] of Object.entries(want)) {
      if (typeof value === 'bigint') {
        assert.ok(typeof got[key] === 'number' || typeof got[key] === 'bigint', `${name}: ${key}`);
        assert.equal(BigInt(got[key]), value, `${name}: seat ${i} ${key}`);
      } else {
        assert.deepEqual(got[key], value, `${name}: seat ${i} ${key}`);
      }
    }
    assert.equal(typeof got.spent, 'bigint', `${name}: spent is a BigInt`);
  });
}

function replay(record, expect, name) {
  switch (expect.kind) {
    case 'outcome': {
      const game = Game.fromRecord(record);
      assert.ok(game.isOver(), name);
      checkOutcome(game.outcome(), expect.outcome, name);
      break;
    }
    case 'pending': {
      const game = Game.fromRecord(record);
      assert.equal(game.isOver(), false, name);
      assert.equal(game.outcome(), null, name);
      break;
    }
    case 'illegal':
      assert.throws(
        () => Game.fromRecord(record),
        (e) =>
          e instanceof QeError &&
          e.index === Number(expect.index) &&
          /^R-[A-Z]+-\d+$/.test(e.rule) &&
          e.code >= 100 &&
          e.code < 200 &&
          e.message.startsWith(`command ${expect.index}: ${e.rule}: `),
        name,
      );
      break;
    case 'bad':
      assert.throws(
        () => Game.fromRecord(record),
        (e) => e instanceof QeError && e.index === undefined && e.code >= 200 && e.code < 300,
        name,
      );
      break;
    default:
      assert.fail(`${name}: unknown expectation ${expect.kind}`);
  }
}

test('the suite is all there', () => {
  assert.ok(cases.length >= 150, `${cases.length} cases`);
});

for (const { name, file } of cases) {
  test(`conformance ${name}`, () => {
    const text = fs.readFileSync(file, 'utf8');
    const expect = parseExact(fs.readFileSync(file.replace(/\.json$/, '.expect.json'), 'utf8'));
    replay(text, expect, `${name} (text)`);
    let object;
    try {
      object = parseExact(text, true);
    } catch {
      // Not JSON, or a key given twice: a JavaScript object cannot say what this text says.
      return;
    }
    replay(object, expect, `${name} (object)`);
  });
}
