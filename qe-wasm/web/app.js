// The QE page: play against the core's bots (they think in a Web Worker, worker.js), or load a
// record and step through it as any seat saw it. Everything about the game comes from the engine
// (the npm package in ./pkg/): what a seat sees, what it may do, the deduction aid's bounds, the
// outcome. This file only shows it and turns clicks and key presses into commands.
import { Game, QeError, botNames, pileNames, tileNames } from './pkg/index.js';
import { parseExact } from './exact-json.js';

const YOU = 0;
const MAX_BID = 2n ** 64n - 1n;
const DEFAULT_BOTS = ['search:medium', 'value', 'search:easy', 'random'];
const PILES = pileNames();
const TILES = tileNames();
/** The tiles of a view's `tiles` mask, by name. */
const tilesOf = (mask) => TILES.filter((_, i) => (mask >> i) & 1);
const $ = (id) => document.getElementById(id);

/** The element `tag` with `props` (attributes, or `class`, or `text`) and children. */
function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') node.textContent = value;
    else if (key === 'class') node.className = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

const turnLabel = (t) => `turn ${t + 1}`;
/** A bid's stage (`"secret"`, `{ rebid: n }`, `{ asset_rebid: n }`) in words. */
const stageText = (stage) =>
  typeof stage === 'string'
    ? stage
    : Object.entries(stage)
        .map(([k, n]) => `${k.replaceAll('_', ' ')} ${n}`)
        .join(' ');
const list = (seats) => (seats.length ? seats.map((s) => seatName(s)).join(', ') : 'nobody');

// ---- state -------------------------------------------------------------------------------------

/**
 * `mode` "play": `game` against `lineup` (a bot name per seat, `null` for you).
 * `mode` "replay": `record` (an object with exact integers), `legal` commands of it replayable,
 * `step` commands applied, seen by `viewer` (a seat, or `null` for a spectator).
 */
let state = null;
let busy = false;
const times = {};
window.qeBotTimes = times;

function seatName(seat) {
  if (state?.mode === 'play') {
    return seat === YOU ? 'You' : `Seat ${seat} (${state.lineup[seat]})`;
  }
  return `Seat ${seat}`;
}

// ---- the worker --------------------------------------------------------------------------------

const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
const pending = new Map();
let nextId = 0;
worker.addEventListener('message', ({ data }) => {
  const p = pending.get(data.id);
  if (!p) return;
  pending.delete(data.id);
  if (data.error) p.reject(new Error(data.error));
  else p.resolve(data);
});
worker.addEventListener('error', (e) => {
  showError('action-error', `The bots' worker failed: ${e.message}`);
});

/** The bot of `seat` decides in the worker, from the game's record: `{ command, ms }`. */
function ask(game, seat) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker.postMessage({ id, record: game.record(), seat, name: state.lineup[seat], seed: BigInt(seat) });
  });
}

// ---- set-up ------------------------------------------------------------------------------------

function renderBotChoices() {
  const players = Number($('players').value);
  const box = $('bot-seats');
  const chosen = [...box.querySelectorAll('select')].map((s) => s.value);
  box.replaceChildren(box.querySelector('legend'));
  for (let seat = 1; seat < players; seat++) {
    const id = `bot-${seat}`;
    const select = el('select', { id });
    for (const name of botNames()) select.append(el('option', { value: name, text: name }));
    select.value = chosen[seat - 1] ?? DEFAULT_BOTS[seat - 1];
    box.append(el('div', { class: 'row' }, el('label', { for: id, text: `Seat ${seat}` }), select));
  }
}

function showError(id, message) {
  $(id).textContent = message;
}

function randomSeed() {
  const words = crypto.getRandomValues(new Uint32Array(2));
  return (BigInt(words[0]) << 32n) | BigInt(words[1]);
}

function startGame(event) {
  event.preventDefault();
  showError('setup-error', '');
  const seedText = $('seed').value.trim();
  if (seedText && !/^\d+$/.test(seedText)) {
    showError('setup-error', 'The seed is a whole number from 0 to 18446744073709551615.');
    return;
  }
  const seed = seedText ? BigInt(seedText) : randomSeed();
  if (seed > MAX_BID) {
    showError('setup-error', 'The seed is a whole number from 0 to 18446744073709551615.');
    return;
  }
  const players = Number($('players').value);
  const expansions = $('commodities').checked ? ['commodities'] : [];
  const lineup = [null];
  for (let seat = 1; seat < players; seat++) lineup.push($(`bot-${seat}`).value);
  try {
    state = { mode: 'play', game: new Game({ players, expansions, seed }), lineup };
  } catch (e) {
    showError('setup-error', e.message);
    return;
  }
  worker.postMessage({ reset: true });
  show('play');
  render();
  $('status').focus();
  advance();
}

async function loadRecord(event) {
  event.preventDefault();
  showError('setup-error', '');
  const file = $('record-file').files[0];
  const text = file ? await file.text() : $('record-text').value;
  if (!text.trim()) {
    showError('setup-error', 'Choose a record file or paste a record first.');
    return;
  }
  let record;
  try {
    record = parseExact(text);
  } catch (e) {
    showError('setup-error', `This is not JSON: ${e.message}`);
    return;
  }
  let legal = Array.isArray(record?.commands) ? record.commands.length : 0;
  let note = '';
  try {
    Game.fromRecord(text);
  } catch (e) {
    if (!(e instanceof QeError) || e.index === undefined) {
      showError('setup-error', `This record cannot be replayed: ${e.message}`);
      return;
    }
    legal = e.index;
    note = `The record stops being legal at ${e.message}; stepping through the ${legal} commands before it.`;
  }
  state = { mode: 'replay', record, legal, step: legal, viewer: null, note };
  const viewer = $('viewer');
  viewer.replaceChildren(el('option', { value: '', text: 'Spectator (public)' }));
  for (let s = 0; s < record.players; s++) viewer.append(el('option', { value: String(s), text: `Seat ${s}` }));
  const range = $('step');
  range.max = String(legal);
  range.value = String(legal);
  show('play');
  render();
  $('step-prev').focus();
}

function show(which) {
  $('loading').hidden = true;
  $('setup').hidden = which !== 'setup';
  $('play').hidden = which !== 'play';
  const replay = state?.mode === 'replay';
  $('replay-bar').hidden = !replay;
  $('actions').hidden = replay;
  $('save').hidden = replay;
}

// ---- playing -----------------------------------------------------------------------------------

/** Lets the bots act until the game is over or waits for you. */
async function advance() {
  if (busy || state?.mode !== 'play') return;
  busy = true;
  const game = state.game;
  try {
    while (state?.game === game && !game.isOver()) {
      const seat = game.toAct().find((s) => s !== YOU);
      if (seat === undefined) break;
      $('thinking').textContent = `${seatName(seat)} is thinking…`;
      render(false);
      const { command, ms } = await ask(game, seat);
      if (state?.game !== game) break; // a new game started meanwhile
      const name = state.lineup[seat];
      const t = (times[name] ??= { decisions: 0, totalMs: 0, maxMs: 0 });
      t.decisions++;
      t.totalMs += ms;
      t.maxMs = Math.max(t.maxMs, ms);
      game.apply(command);
      $('thinking').textContent = `Last bot decision: ${ms.toFixed(1)} ms (${name}).`;
    }
  } catch (e) {
    showError('action-error', `A bot failed: ${e.message}`);
  } finally {
    busy = false;
  }
  if (state?.game !== game) {
    advance(); // the new game's bots, which waited for this loop to end
    return;
  }
  render();
  if (!game.isOver() && game.toAct().includes(YOU)) focusAction();
}

function focusAction() {
  const input = $('bid');
  if (!$('bid-form').hidden) input.focus();
  else $('pile-buttons').querySelector('button')?.focus();
}

function play(command) {
  showError('action-error', '');
  try {
    state.game.apply(command);
  } catch (e) {
    if (!(e instanceof QeError)) throw e;
    showError('action-error', e.message);
    return false;
  }
  render();
  advance();
  return true;
}

function submitBid(event) {
  event.preventDefault();
  const text = $('bid').value.trim();
  if (!/^\d+$/.test(text)) {
    showError('action-error', 'A bid is a whole number from 0 to 18446744073709551615.');
    $('bid').focus();
    return;
  }
  if (play({ seat: YOU, bid: BigInt(text) })) $('bid').value = '';
  else $('bid').focus();
}

function saveRecord() {
  const text = state.game.record();
  const blob = new Blob([text], { type: 'application/json' });
  const a = el('a', { href: URL.createObjectURL(blob), download: `qe-game-${state.game.seed}.json` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

// ---- stepping through a record -----------------------------------------------------------------

function replayGame() {
  const { record, step } = state;
  return Game.fromRecord({ ...record, commands: record.commands.slice(0, step) });
}

function goTo(step) {
  state.step = Math.max(0, Math.min(state.legal, step));
  $('step').value = String(state.step);
  render();
}

// ---- showing it --------------------------------------------------------------------------------

function bounds(b) {
  return b.lower === b.upper ? String(b.lower) : `${b.lower} –\n${b.upper}`;
}

function assets(counts) {
  return PILES.map((p, i) => `${p} ${counts[i]}`).join(', ');
}

function eventText(e) {
  switch (e.event) {
    case 'dealt':
      return `${seatName(e.seat)} ${e.seat === YOU && state.mode === 'play' ? 'were' : 'was'} dealt ${e.industry ?? 'an industry token (hidden)'}`;
    case 'tile_revealed':
      return `${turnLabel(e.turn)}: ${e.tile} is up for auction (auctioneer: ${e.auctioneer === null ? 'none' : seatName(e.auctioneer)})`;
    case 'opening_bid':
      return `${seatName(e.seat)} opened at ${e.amount}`;
    case 'bid':
      return `${seatName(e.seat)}: ${stageText(e.stage)} bid ${e.amount === null ? '(hidden)' : e.amount}`;
    case 'rebid_required':
      return `Tie for the ${e.asset ? 'asset' : 'company'}: ${list(e.seats)} rebid`;
    case 'awarded':
      return e.winner === null
        ? `${e.tile} is discarded`
        : `${seatName(e.winner)} won ${e.tile} for ${e.price === null ? '(hidden)' : e.price}`;
    case 'zero_bids':
      return `Zero bids: ${list(e.seats)}${e.marked.length ? `; marked: ${list(e.marked)}` : ''}`;
    case 'asset_taker':
      return `${seatName(e.seat)} takes an asset`;
    case 'asset_taken':
      return `${seatName(e.seat)} took ${e.token ?? 'a token (hidden)'} from ${e.kind}${e.price === null ? '' : ` for ${e.price}`}`;
    case 'no_taker':
      return `Nobody takes an asset on ${turnLabel(e.turn)}`;
    case 'asset_discarded':
      return `${seatName(e.seat)} discarded from ${e.kind}`;
    case 'peeked':
      return `${seatName(e.seat)} peeked at ${turnLabel(e.turn)}${e.price === null ? '' : `: ${e.price}`}`;
    case 'game_over':
      return 'Game over';
    default:
      return JSON.stringify(e, (_, v) => (typeof v === 'bigint' ? String(v) : v));
  }
}

function facts(dl, pairs) {
  dl.replaceChildren(...pairs.flatMap(([k, v]) => [el('dt', { text: k }), el('dd', { text: String(v) })]));
}

function phaseText(game, view) {
  const toAct = game.toAct();
  const who = toAct.length ? `waiting for ${list(toAct)}` : '';
  const names = {
    opening_bid: 'opening bid',
    bidding: 'sealed bids',
    rebid: 'rebid',
    asset_rebid: 'asset rebid',
    take_asset: 'taking an asset',
    discard_asset: 'discarding an asset',
    game_over: 'game over',
  };
  if (game.isOver()) return 'Game over';
  return `Turn ${view.turn + 1} of ${view.turns}: ${names[game.phase] ?? game.phase}, ${who}`;
}

/** Draws everything from the game as the viewer sees it; `actions`: also the action controls. */
function render(actions = true) {
  if (!state) return;
  const replay = state.mode === 'replay';
  const game = replay ? replayGame() : state.game;
  const viewer = replay ? state.viewer : YOU;
  const view = viewer === null ? game.publicView() : game.view(viewer);
  const spend = viewer === null ? null : game.spendBounds(viewer);
  const players = game.players;

  $('status').textContent = phaseText(game, view);
  if (replay) {
    $('step-label').textContent = `step ${state.step} of ${state.legal}`;
    $('thinking').textContent = state.note;
  }

  // You (or the seat stepped through).
  $('you-title').textContent = viewer === null ? 'Spectator' : replay ? `Seat ${viewer}` : 'You (seat 0)';
  if (viewer === null) {
    facts($('you-facts'), [['Sees', 'public information only (everything once the game is over)']]);
  } else {
    const me = view.seats[viewer];
    facts($('you-facts'), [
      ['Nation', me.nation],
      ['Industry', me.industry ?? '(hidden)'],
      ['Spent', me.spent],
      ['Tiles', tilesOf(me.tiles).join(', ') || 'none'],
      ['Zero marks', me.zero_marks],
      ...(game.expansions.length ? [['Assets', assets(me.assets)]] : []),
    ]);
  }

  // The auction in progress.
  const current = view.auctions[view.turn];
  const auctionPairs = game.isOver()
    ? [['Auctions', `${view.turns_started} played`]]
    : [
        ['Tile', view.tile ?? '—'],
        ['Auctioneer', view.auctioneer === null ? 'none (last tile)' : seatName(view.auctioneer)],
        ['Opening bid', current?.opening ?? '—'],
        ['Have bid', list(view.has_bid)],
        ...(viewer === null ? [] : [['Your bid', view.bids[viewer] ?? '—']]),
        ['Tiles left', view.deck_remaining],
        ...(game.expansions.length ? [['Piles left', assets(view.piles_remaining)]] : []),
      ];
  facts($('auction-facts'), auctionPairs);

  // Your move.
  if (!replay) renderActions(game, actions);

  // The table, with the deduction aid's bounds.
  const head = el(
    'tr',
    {},
    ...['Seat', 'Spent', 'Tiles', 'Zero marks', 'Industry', 'Nation', ...(game.expansions.length ? ['Assets'] : [])].map(
      (h) => el('th', { scope: 'col', text: h }),
    ),
  );
  const rows = [];
  for (let s = 0; s < players; s++) {
    const seat = view.seats[s];
    const spent = spend ? bounds(spend[s]) : (seat.spent ?? 'hidden');
    rows.push(
      el(
        'tr',
        { class: s === viewer ? 'me' : '' },
        el('th', { scope: 'row', text: seatName(s) }),
        el('td', { class: 'num bounds', text: String(spent) }),
        el('td', { class: 'num', title: tilesOf(seat.tiles).join(', '), text: String(tilesOf(seat.tiles).length) }),
        el('td', { class: 'num', text: String(seat.zero_marks) }),
        el('td', { text: seat.industry ?? 'hidden' }),
        el('td', { text: seat.nation }),
        game.expansions.length ? el('td', { text: assets(seat.assets) }) : null,
      ),
    );
  }
  $('table').replaceChildren(el('thead', {}, head), el('tbody', {}, ...rows));

  // The auctions so far.
  const ahead = el(
    'tr',
    {},
    ...['Turn', 'Tile', 'Winner', 'Price', 'Opening', 'Auctioneer', ...(game.expansions.length ? ['Asset'] : [])].map((h) =>
      el('th', { scope: 'col', text: h }),
    ),
  );
  const arows = view.auctions.slice(0, view.turns_started).map((a) =>
    el(
      'tr',
      {},
      el('td', { text: String(a.turn + 1) }),
      el('td', { text: a.tile ?? '' }),
      el('td', { text: a.awarded ? (a.winner === null ? 'discarded' : seatName(a.winner)) : '…' }),
      el('td', { class: 'num', text: a.price === null ? (a.awarded && a.winner !== null ? 'hidden' : '—') : String(a.price) }),
      el('td', { class: 'num', text: a.opening === null ? '—' : String(a.opening) }),
      el('td', { text: a.auctioneer === null ? '—' : seatName(a.auctioneer) }),
      game.expansions.length
        ? el(
            'td',
            { class: 'wrap' },
            a.asset.taken
              ? `${seatName(a.asset.seat)}: ${a.asset.kind} ${a.asset.token ?? '(hidden)'}${a.asset.price === null ? '' : ` for ${a.asset.price}`}`
              : a.asset.discarded
                ? `${a.asset.kind} discarded`
                : '—',
          )
        : null,
    ),
  );
  $('auctions').replaceChildren(el('thead', {}, ahead), el('tbody', {}, ...arows));

  // The log as the viewer saw it, newest last.
  const events = viewer === null ? game.events() : game.events(viewer);
  $('log').replaceChildren(...events.map((e) => el('li', { text: eventText(e) })));
  $('log').scrollTop = $('log').scrollHeight;

  renderReveal(game);
}

function renderActions(game, enabled) {
  const mine = !busy && enabled && !game.isOver() && game.toAct().includes(YOU);
  const legal = game.legal(YOU);
  const form = $('bid-form');
  form.hidden = !(mine && legal.bid);
  if (legal.bid) {
    const { min, forbidden } = legal.bid;
    $('bid-range').textContent =
      `From ${min} to ${MAX_BID}${forbidden === null ? '' : `, not ${forbidden} (the opening bid)`}.`;
  }
  const piles = $('pile-buttons');
  piles.replaceChildren();
  if (mine) {
    for (const p of legal.take) piles.append(el('button', { type: 'button', onclick: () => play({ seat: YOU, take_asset: p }), text: `Take from ${p}` }));
    for (const p of legal.discard) piles.append(el('button', { type: 'button', onclick: () => play({ seat: YOU, discard_asset: p }), text: `Discard from ${p}` }));
  }
  const peeks = $('peek-buttons');
  peeks.replaceChildren();
  if (mine || (!busy && !game.isOver() && legal.peek.length)) {
    const view = game.view(YOU);
    for (const t of legal.peek) {
      peeks.append(
        el('button', { type: 'button', class: 'secondary', onclick: () => play({ seat: YOU, peek: t }), text: `Peek at the price of ${turnLabel(t)} (${view.auctions[t].tile})` }),
      );
    }
  }
  $('action-hint').textContent = game.isOver()
    ? 'The game is over.'
    : busy
      ? 'The bots are deciding…'
      : mine
        ? legal.bid
          ? 'Type your bid: any whole number up to 18446744073709551615.'
          : 'Choose a pile.'
        : 'Waiting.';
}

function renderReveal(game) {
  const outcome = game.outcome();
  $('reveal').hidden = !outcome;
  if (!outcome) return;
  const cols = ['Seat', 'Result', 'Total', 'Spent', 'Nation', 'Industry', 'Companies', 'Zero bids', 'National.', 'Monopol.', 'Diversif.', ...(game.expansions.length ? ['Commod.'] : []), 'Least spent'];
  const rows = outcome.seats.map((s) =>
    el(
      'tr',
      {},
      el('th', { scope: 'row', text: seatName(s.seat) }),
      el('td', { class: s.winner ? 'winner' : s.eliminated ? 'eliminated' : '', text: s.winner ? 'winner' : s.eliminated ? 'eliminated' : '' }),
      el('td', { class: 'num', text: String(s.total) }),
      el('td', { class: 'num', text: String(s.spent) }),
      el('td', { text: s.nation }),
      el('td', { text: s.industry }),
      ...[s.companies, s.zero_bids, s.nationalization, s.monopolization, s.diversification, ...(game.expansions.length ? [s.commodities] : []), s.least_spent_bonus].map(
        (v) => el('td', { class: 'num', text: String(v) }),
      ),
    ),
  );
  $('scores').replaceChildren(el('thead', {}, el('tr', {}, ...cols.map((c) => el('th', { scope: 'col', text: c })))), el('tbody', {}, ...rows));
  // Every secret bid and rebid, as everyone sees them at the end (R-VIS-7): a row a turn.
  const history = game.publicView().bid_history;
  const turns = [...new Set(history.map((b) => b.turn))];
  const players = outcome.seats.length;
  const brows = turns.map((turn) =>
    el(
      'tr',
      {},
      el('th', { scope: 'row', text: String(turn + 1) }),
      ...Array.from({ length: players }, (_, seat) =>
        el('td', {
          class: 'num',
          text: history
            .filter((b) => b.turn === turn && b.seat === seat)
            .map((b) => (b.stage === 'secret' ? String(b.amount) : `${stageText(b.stage)}: ${b.amount}`))
            .join('; '),
        }),
      ),
    ),
  );
  $('all-bids').replaceChildren(
    el('thead', {}, el('tr', {}, el('th', { scope: 'col', text: 'Turn' }), ...outcome.seats.map((s) => el('th', { scope: 'col', text: seatName(s.seat) })))),
    el('tbody', {}, ...brows),
  );
}

// ---- wiring ------------------------------------------------------------------------------------

$('players').addEventListener('change', renderBotChoices);
$('setup-form').addEventListener('submit', startGame);
$('load-form').addEventListener('submit', loadRecord);
$('bid-form').addEventListener('submit', submitBid);
$('save').addEventListener('click', saveRecord);
$('new-game').addEventListener('click', () => {
  state = null;
  show('setup');
  $('start').focus();
});
$('viewer').addEventListener('change', () => {
  state.viewer = $('viewer').value === '' ? null : Number($('viewer').value);
  render();
});
$('step').addEventListener('input', () => goTo(Number($('step').value)));
$('step-first').addEventListener('click', () => goTo(0));
$('step-prev').addEventListener('click', () => goTo(state.step - 1));
$('step-next').addEventListener('click', () => goTo(state.step + 1));
$('step-last').addEventListener('click', () => goTo(state.legal));
document.addEventListener('keydown', (e) => {
  if (state?.mode !== 'replay' || e.target.closest('input[type=text], textarea, select')) return;
  const to = { ArrowLeft: state.step - 1, ArrowRight: state.step + 1, Home: 0, End: state.legal }[e.key];
  if (to !== undefined && e.target !== $('step')) {
    e.preventDefault();
    goTo(to);
  }
});

renderBotChoices();
show('setup');
$('players').focus();
