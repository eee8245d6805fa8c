//! One env of a [`super::VectorEnv`]: its game (with or without the observation history), its
//! opponents, its seeds and its output rows, and what refuses an action.

use pyo3::prelude::*;

use super::{
    by_name_with, command_error, decide, mix_seed, state_error, ActionSpace, BoxedBot, Game, Match,
    ObservedGame, PerSeat, PyValueError, Reward, Rules, Seat, OBS_SIZE,
};

mod exclusive {
    /// A value reachable only through `&mut` (so sharing `&Exclusive<T>` between threads gives no
    /// access to it): `Sync` whenever `T` is `Send`, as the bots must be for a `pyclass`.
    pub(crate) struct Exclusive<T>(T);

    // SAFETY: the field is private to this module, and nothing here hands out `&T` from
    // `&Exclusive<T>`: it is reached only through `&mut`.
    unsafe impl<T: Send> Sync for Exclusive<T> {}

    impl<T> Exclusive<T> {
        pub(crate) fn new(value: T) -> Self {
            Exclusive(value)
        }
        pub(crate) fn get_mut(&mut self) -> &mut T {
            &mut self.0
        }
    }
}
pub(crate) use exclusive::Exclusive;

/// One env's game: with its history (a `Match`, for opponents that read their bid history,
/// `Bot::uses_history`: the search bots) or without (an `ObservedGame`: the others need only the
/// view). Either owns the writer of its observations, so nothing is kept in step with it.
// Every env of a batch is of the same kind, so the smaller variant wastes nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub(super) enum EnvGame {
    Plain(ObservedGame),
    History(Match),
}

impl EnvGame {
    /// `game`, with its history when `history`.
    pub(super) fn new(game: Game, history: bool) -> EnvGame {
        if history {
            EnvGame::History(Match::new(game))
        } else {
            EnvGame::Plain(ObservedGame::new(game))
        }
    }

    /// The game.
    #[inline]
    pub(super) fn game(&self) -> &Game {
        match self {
            EnvGame::Plain(observed) => observed.game(),
            EnvGame::History(m) => m.game(),
        }
    }

    /// Starts over with `game`, of the same kind.
    pub(super) fn reset(&mut self, game: Game) {
        match self {
            EnvGame::Plain(observed) => observed.reset(game),
            EnvGame::History(m) => *m = Match::new(game),
        }
    }

    /// Plays `command` (`Game::play`; on error nothing changes).
    #[inline]
    pub(super) fn play(&mut self, command: qe_core::Command) -> Result<(), qe_core::CommandError> {
        match self {
            EnvGame::Plain(observed) => observed.play(command),
            EnvGame::History(m) => m.play(command),
        }
    }

    /// Writes the observation of `seat` (`observe_seat`'s floats).
    #[inline]
    pub(super) fn observe(&mut self, seat: Seat, out: &mut [f32]) {
        match self {
            EnvGame::Plain(observed) => observed.observe(seat, out),
            EnvGame::History(m) => m.observe(seat, out),
        }
    }

    /// The match, when the env keeps the history.
    #[cfg(test)]
    pub(super) fn history(&self) -> Option<&Match> {
        match self {
            EnvGame::Plain(_) => None,
            EnvGame::History(m) => Some(m),
        }
    }
}

/// What every env of a batch shares, read-only while the envs step (on several threads).
#[derive(Clone)]
pub(super) struct Config {
    pub(super) rules: Rules,
    pub(super) space: ActionSpace,
    pub(super) seed: u64,
    /// The name of the bots that play the other seats (`qe_core::bots::by_name`), if any.
    pub(super) opponents: Option<String>,
    /// Whether the games keep their history (the opponents read their bid history).
    pub(super) with_history: bool,
    pub(super) learner: Seat,
    pub(super) reward: Reward,
    pub(super) all_seats: bool,
    /// Whether the observation rows of seats that need not act are zeroed (else left as they were).
    pub(super) zero_others: bool,
    /// Whether a finished game is replaced by the env's next game in the step that ends it (else
    /// it stays over until the env is reset).
    pub(super) autoreset: bool,
}

impl Config {
    pub(super) fn players(&self) -> usize {
        self.rules.players() as usize
    }

    /// Rows per env in the outputs: 1 with opponents (the learner), else one per seat.
    pub(super) fn rows(&self) -> usize {
        if self.opponents.is_some() {
            1
        } else {
            self.players()
        }
    }

    /// The number of actions: the game's, then the wait action of seats with nothing to do.
    pub(super) fn actions(&self) -> usize {
        self.space.size() + 1
    }

    /// The seat of output row `r`.
    pub(super) fn seat_of_row(&self, r: usize) -> Seat {
        if self.opponents.is_some() {
            self.learner
        } else {
            Seat(r as u8)
        }
    }

    /// The seed of the `k`-th game (from 0) of env `e`.
    pub(super) fn game_seed(&self, e: usize, k: u64) -> u64 {
        mix_seed(self.seed ^ mix_seed(((e as u64) << 32) ^ k))
    }

    /// The seed of the bot at `seat` in the game of `game_seed`.
    pub(super) fn bot_seed(game_seed: u64, seat: usize) -> u64 {
        mix_seed(game_seed ^ (seat as u64 + 1))
    }

    /// The game env `e` played as its `k`-th: from its seed, `commands` replayed through the
    /// core, or why not (a `ValueError` naming the env and the command).
    pub(super) fn replay(
        &self,
        e: usize,
        k: u64,
        commands: &[qe_core::Command],
    ) -> PyResult<Match> {
        let mut m = Match::seeded(self.rules, self.game_seed(e, k));
        for (i, c) in commands.iter().enumerate() {
            m.play(*c).map_err(|err| {
                state_error(format!("env {e}, command {i} ({}): {err}", c.to_json()))
            })?;
        }
        Ok(m)
    }
}

/// One env's outputs: its rows of the batch's arrays (or of its own [`EnvBuf`]).
pub(super) struct EnvOut<'a> {
    pub(super) obs: &'a mut [f32],
    pub(super) mask: &'a mut [i8],
    pub(super) reward: &'a mut [f32],
    pub(super) done: &'a mut bool,
}

/// The outputs of an env stepped by `send`, kept with it until `recv` copies them into a batch.
pub(super) struct EnvBuf {
    pub(super) obs: Vec<f32>,
    pub(super) mask: Vec<i8>,
    pub(super) reward: Vec<f32>,
    pub(super) done: bool,
}

impl EnvBuf {
    pub(super) fn out(&mut self) -> EnvOut<'_> {
        EnvOut {
            obs: &mut self.obs,
            mask: &mut self.mask,
            reward: &mut self.reward,
            done: &mut self.done,
        }
    }
}

/// Why an action of [`Env::decode`] is refused.
pub(super) enum Refusal {
    /// The command the action stands for breaks a rule.
    Illegal(qe_core::CommandError),
    /// A legal command the action space does not offer (a peek without `peeks=True`).
    NotOffered,
    /// The wait action, for a seat that must act.
    Wait,
    /// Outside the action space.
    OutOfRange,
}

/// An action refused by [`Env::decode`]: the env, the seat, the action given and why.
pub(super) struct Refused {
    pub(super) env: usize,
    pub(super) seat: Seat,
    pub(super) raw: i64,
    pub(super) why: Refusal,
}

impl Refused {
    /// The Python error (`IllegalCommand` or `ValueError`), with `.env` and `.seat` set.
    pub(super) fn into_err(self, py: Python<'_>, actions: usize) -> PyErr {
        let (raw, seat) = (self.raw, self.seat.0);
        let err = match self.why {
            Refusal::Illegal(ce) => command_error(py, &ce),
            Refusal::NotOffered => PyValueError::new_err(format!(
                "action {raw} is not offered to seat {seat} (a peek is offered only with \
                 peeks=True)"
            )),
            Refusal::Wait => PyValueError::new_err(format!(
                "action {raw} is the wait action, but seat {seat} must act"
            )),
            Refusal::OutOfRange => PyValueError::new_err(format!(
                "action {raw} out of range 0..{actions} (seat {seat})"
            )),
        };
        let _ = err.value(py).setattr("env", self.env);
        let _ = err.value(py).setattr("seat", seat);
        err
    }
}

/// One env: its game and everything kept beside it. Envs are independent of one another, so
/// a batch steps them on several threads, each env on one.
pub(super) struct Env {
    /// Its index in the batch (for seeding).
    pub(super) index: usize,
    /// The game, with the writer of its observations (exactly `observe_seat`'s floats, faster:
    /// it keeps the slots of the turns over, PERF.md).
    pub(super) game: EnvGame,
    /// How many games the env has started (for seeding).
    pub(super) started: u64,
    /// The last game the env finished since it was made or reset, as it ended.
    pub(super) finished: Option<Game>,
    /// The commands of the current game, and of the game in `finished`: what a pickle of the
    /// batch holds, replayed through the core when it is read.
    pub(super) log: Vec<qe_core::Command>,
    pub(super) finished_log: Vec<qe_core::Command>,
    /// The bots of the other seats, with opponents.
    pub(super) bots: PerSeat<Option<Exclusive<BoxedBot>>>,
    /// The commands of the step being applied, per seat (from [`Env::decode`]).
    pub(super) pending: PerSeat<Option<qe_core::Command>>,
    /// The outputs of the env's last step by `send` (made at its first).
    pub(super) buf: Option<EnvBuf>,
}

impl Env {
    pub(super) fn new(index: usize, cfg: &Config) -> Env {
        Env {
            index,
            game: EnvGame::new(Game::seeded(cfg.rules, 0), cfg.with_history),
            started: 0,
            finished: None,
            log: Vec::new(),
            finished_log: Vec::new(),
            bots: PerSeat::default(),
            pending: PerSeat::default(),
            buf: None,
        }
    }

    /// Forgets the commands of a step that will not be applied.
    pub(super) fn clear_pending(&mut self) {
        self.pending = PerSeat::default();
    }

    /// Starts the env's next game (and its bots, who act until the learner must).
    pub(super) fn new_game(&mut self, cfg: &Config) {
        let k = self.started;
        self.started += 1;
        let game_seed = cfg.game_seed(self.index, k);
        self.game.reset(Game::seeded(cfg.rules, game_seed));
        self.log.clear();
        if let Some(name) = &cfg.opponents {
            let manifest = *cfg.rules.manifest();
            for (seat, bot) in self.bots.seats_mut().take(cfg.players()) {
                *bot = (seat != cfg.learner).then(|| {
                    Exclusive::new(
                        by_name_with(name, Config::bot_seed(game_seed, seat.index()), manifest)
                            .expect("checked by new"),
                    )
                });
            }
            self.run_bots(cfg);
        }
    }

    /// Plays the opponents until the learner must act or the game ends.
    pub(super) fn run_bots(&mut self, cfg: &Config) {
        let learner = cfg.learner;
        let env = &mut self.game;
        while !env.game().is_over() {
            let mut others = env.game().to_act();
            others.remove(learner);
            let Some(seat) = others.first() else { break };
            let bot = self.bots[seat]
                .as_mut()
                .expect("every other seat has a bot")
                .get_mut();
            let command = match env {
                EnvGame::History(m) => decide(&mut **bot, m, seat, true),
                EnvGame::Plain(observed) => bot.act(&observed.game().view(seat)),
            }
            .expect("a bot that must act acts");
            env.play(command).expect("bots play legal commands");
            self.log.push(command);
        }
    }

    /// Writes the env's observation and mask rows (a game over, kept without autoreset, shows
    /// every row's last observation and the wait action only).
    pub(super) fn write(&mut self, cfg: &Config, out: &mut EnvOut<'_>) {
        let a = cfg.actions();
        let wait = cfg.space.size();
        let observed = &mut self.game;
        let acting = observed.game().to_act();
        let over = observed.game().is_over();
        for (r, (o, m)) in out
            .obs
            .chunks_exact_mut(OBS_SIZE)
            .zip(out.mask.chunks_exact_mut(a))
            .enumerate()
        {
            let seat = cfg.seat_of_row(r);
            if !acting.contains(seat) {
                // Nothing to do: the wait action only (ignored by `step`).
                if cfg.all_seats || over {
                    observed.observe(seat, o);
                } else if cfg.zero_others {
                    crate::buf::zero_row(o);
                }
                m.fill(0);
                m[wait] = 1;
                continue;
            }
            observed.observe(seat, o);
            cfg.space
                .mask_with(&observed.game().legal(seat), &mut m[..wait], 1, 0);
            m[wait] = 0;
        }
    }

    /// The commands of `actions` (the env's row: one per seat, or the learner's) for the seats
    /// that must act, into `self.pending`; the first refused one, if any (nothing is played).
    pub(super) fn decode(&mut self, cfg: &Config, actions: &[i64]) -> Result<(), Refused> {
        let single = cfg.opponents.is_some();
        self.clear_pending();
        let game = self.game.game();
        for seat in game.to_act().iter() {
            if single && seat != cfg.learner {
                continue;
            }
            let raw = actions[if single { 0 } else { seat.index() }];
            let legal = game.legal(seat);
            let a = usize::try_from(raw).ok();
            if let Some(a) = a.filter(|&a| cfg.space.is_legal(&legal, a)) {
                self.pending[seat] = cfg.space.decode(seat, &legal, a);
                continue;
            }
            let why = match a.and_then(|a| cfg.space.decode(seat, &legal, a)) {
                Some(c) => match { *game }.play(c) {
                    Err(ce) => Refusal::Illegal(ce),
                    Ok(()) => Refusal::NotOffered,
                },
                None if a == Some(cfg.space.size()) => Refusal::Wait,
                None => Refusal::OutOfRange,
            };
            self.clear_pending();
            return Err(Refused {
                env: self.index,
                seat,
                raw,
                why,
            });
        }
        Ok(())
    }

    /// Applies the commands of [`Env::decode`], then the bots', and writes the outputs; the
    /// seat decisions applied and the games finished (0 or 1).
    pub(super) fn step(&mut self, cfg: &Config, out: &mut EnvOut<'_>) -> (u64, u64) {
        out.reward.fill(0.0);
        let mut decisions = 0;
        if self.game.game().is_over() {
            // Kept over (no autoreset) until the env is reset: nothing to apply.
            *out.done = false;
            self.write(cfg, out);
            return (0, 0);
        }
        for c in self.pending.values().flatten() {
            self.game.play(*c).expect("validated");
            self.log.push(*c);
            decisions += 1;
        }
        self.clear_pending();
        if cfg.opponents.is_some() {
            self.run_bots(cfg);
        }
        let outcome = self.game.game().outcome();
        *out.done = outcome.is_some();
        let mut episodes = 0;
        if let Some(outcome) = outcome {
            if cfg.opponents.is_some() {
                out.reward[0] = cfg.reward.of(&outcome, cfg.learner) as f32;
            } else {
                cfg.reward.write(&outcome, out.reward);
            }
            self.finished = Some(*self.game.game());
            episodes = 1;
            if cfg.autoreset {
                core::mem::swap(&mut self.log, &mut self.finished_log);
                self.new_game(cfg);
            } else {
                self.finished_log.clone_from(&self.log);
            }
        }
        self.write(cfg, out);
        (decisions, episodes)
    }

    /// Starts the env's next game and writes its first outputs.
    pub(super) fn restart(&mut self, cfg: &Config, out: &mut EnvOut<'_>) {
        self.new_game(cfg);
        self.write(cfg, out);
        out.reward.fill(0.0);
        *out.done = false;
    }
}
