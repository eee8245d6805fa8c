// The bots' Web Worker: each request carries the game's record and the seat; the worker replays
// the record, asks that seat's bot (kept between requests, so it plays as the same bot all game)
// and answers with its command and the time it took to decide. The page never waits on it.
import { Bot, Game } from './pkg/index.js';

const bots = new Map();

self.addEventListener('message', ({ data }) => {
  if (data.reset) {
    bots.clear();
    return;
  }
  const { id, record, seat, name, seed } = data;
  try {
    let bot = bots.get(seat);
    if (!bot || bot.name !== name || bot.seed !== seed) {
      bot = new Bot(name, seed);
      bots.set(seat, bot);
    }
    const game = Game.fromRecord(record);
    const start = performance.now();
    const command = bot.decide(game, seat);
    const ms = performance.now() - start;
    self.postMessage({ id, command, ms });
  } catch (e) {
    self.postMessage({ id, error: String(e?.message ?? e) });
  }
});
