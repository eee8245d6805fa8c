// The bots' Web Worker: each request carries the game's record and the seat; the worker replays
// the record, asks that seat's bot (kept between requests, so it plays as the same bot all game)
// and answers with its command and the time it took to decide. The page never waits on it.
//
// The engine is imported dynamically, after the message listener is in place: a static import
// would hold the listener back until the WebAssembly is loaded, and messages posted meanwhile
// could be lost.
const engine = import('./pkg/index.js');
const bots = new Map();

self.addEventListener('message', async ({ data }) => {
  try {
    const { Bot, Game } = await engine;
    if (data.reset) {
      bots.clear();
      return;
    }
    const { record, seat, name, seed } = data;
    let bot = bots.get(seat);
    if (!bot || bot.name !== name || bot.seed !== seed) {
      bot = new Bot(name, seed);
      bots.set(seat, bot);
    }
    const game = Game.fromRecord(record);
    const start = performance.now();
    const command = bot.decide(game, seat);
    const ms = performance.now() - start;
    self.postMessage({ id: data.id, command, ms });
  } catch (e) {
    self.postMessage({ id: data.id, error: String(e?.message ?? e) });
  }
});
