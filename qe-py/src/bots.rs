//! `Bot`: a baseline policy of `qe_core::bots`, by name, for any seat of a `qe.Game`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use qe_core::bots::{NamedBot, NAMES};
use qe_core::{Command, Manifest, Seat};

use crate::args::{self, seat_of};
use crate::command;
use crate::encoding::MAX_ACTIONS;
use crate::errors::command_error;
use crate::game::PyGame;
use crate::vector::Exclusive;

/// A bot of `qe_core::bots` (a `qe_core::bots::NamedBot`, so every name the core knows works):
/// it decides from the seat's view and, for the bots that read it, its bid history, and follows
/// the game's manifest, as in the `qe` command and the C ABI.
#[pyclass(module = "qe._qe", name = "Bot")]
pub struct PyBot {
    bot: Exclusive<NamedBot>,
}

impl PyBot {
    /// The bot's command for `seat` now, `None` when the seat has nothing to do. Without the peek
    /// actions in the game's action space, the bot is not offered a peek (so every command it
    /// gives is an action of the space).
    fn decide(&mut self, game: &PyGame, seat: Seat, peeks: bool) -> Option<Command> {
        self.bot.get_mut().decide(&game.m, seat, peeks)
    }

    fn get(&mut self) -> &NamedBot {
        self.bot.get_mut()
    }
}

#[pymethods]
impl PyBot {
    /// `Bot(name, seed=0)`: the bot of `qe_core::bots` of this name (`random`, `miser`, `value`,
    /// `search`, `search:easy`...), seeded; a `ValueError` names an unknown one.
    #[new]
    #[pyo3(signature = (name, seed=0))]
    fn new(
        #[pyo3(from_py_with = args::text)] name: String,
        #[pyo3(from_py_with = args::seed)] seed: u64,
    ) -> PyResult<Self> {
        let bot = NamedBot::new(&name, seed).ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown bot \"{}\": expected a bot name of qe_core::bots ({})",
                qe_core::shown(&name),
                NAMES.join(", ")
            ))
        })?;
        Ok(PyBot {
            bot: Exclusive::new(bot),
        })
    }

    /// The name it was built from.
    #[getter]
    fn name(&mut self) -> String {
        self.get().name().to_owned()
    }

    /// The seed it was built with.
    #[getter]
    fn seed(&mut self) -> u64 {
        self.get().seed()
    }

    /// Its command for `seat` now in record form (`{"seat": 1, "bid": 7}`), or `None` when the
    /// seat has nothing to do. The game is not changed.
    fn command<'py>(
        &mut self,
        py: Python<'py>,
        game: PyRef<'_, PyGame>,
        seat: &Bound<'_, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let s = seat_of(py, game.game(), seat)?;
        self.decide(&game, s, true)
            .map(|c| command::to_python(py, &command::to_json(&c, game.game().players())))
            .transpose()
    }

    /// Plays its command for `seat` (any amount, not only the ladder's); returns whether it had
    /// one to play.
    fn play(
        &mut self,
        py: Python<'_>,
        mut game: PyRefMut<'_, PyGame>,
        seat: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        let s = seat_of(py, game.game(), seat)?;
        match self.decide(&game, s, true) {
            None => Ok(false),
            Some(c) => {
                game.m.play(c).map_err(|e| command_error(py, &e))?;
                Ok(true)
            }
        }
    }

    /// Its decision for `seat` as an action of the game's action space, `None` when the seat has
    /// nothing to do. A bid between two rungs of the ladder becomes the nearest legal rung (the
    /// lower one on a tie); without peek actions the bot is not offered a peek. The game is not
    /// changed.
    fn action(
        &mut self,
        py: Python<'_>,
        game: PyRef<'_, PyGame>,
        seat: &Bound<'_, PyAny>,
    ) -> PyResult<Option<usize>> {
        let s = seat_of(py, game.game(), seat)?;
        let space = game.space;
        let Some(c) = self.decide(&game, s, space.has_peeks()) else {
            return Ok(None);
        };
        if let Some(a) = space.encode(&c) {
            if space.is_legal(&game.game().legal(s), a) {
                return Ok(Some(a));
            }
        }
        let Command::Bid { amount, .. } = c else {
            return Err(PyValueError::new_err(format!(
                "bot {:?} chose {}, which is not an action of this game",
                self.get().name(),
                c.to_json()
            )));
        };
        let mut mask = [false; MAX_ACTIONS];
        let n = space.size();
        space.mask(&game.game().legal(s), &mut mask[..n]);
        let ladder = space.ladder().amounts();
        let nearest = (0..ladder.len())
            .filter(|&a| mask[a])
            .min_by_key(|&a| (ladder[a].abs_diff(amount), ladder[a]));
        nearest.map(Some).ok_or_else(|| {
            PyValueError::new_err(format!(
                "bot {:?} bid {amount}, and no rung of the ladder {:?} is legal for seat {seat}",
                self.get().name(),
                ladder
            ))
        })
    }

    fn __repr__(&mut self) -> String {
        let bot = self.get();
        format!("Bot({:?}, seed={})", bot.name(), bot.seed())
    }

    /// Pickled (and copied) as data: its name and seed, then its state (the manifest it is built
    /// for, as a record writes one, `None` for the default; where its random streams are), so a
    /// copy decides as the original will.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (String, u64), Bound<'py, PyDict>)> {
        let py = slf.py();
        let mut this = slf.borrow_mut();
        let bot = this.bot.get_mut();
        let manifest = bot.manifest();
        let state = PyDict::new(py);
        let manifest = (manifest != Manifest::default()).then(|| manifest.to_json());
        state.set_item("manifest", manifest)?;
        state.set_item("streams", bot.streams().to_vec())?;
        let args = (bot.name().to_owned(), bot.seed());
        Ok((slf.get_type().into_any(), args, state))
    }

    /// Restores what [`PyBot::__reduce__`] saved; a state that is not one is a `ValueError`
    /// naming the field, and the bot is unchanged.
    fn __setstate__(&mut self, state: &Bound<'_, PyAny>) -> PyResult<()> {
        let bad = |what: String| PyValueError::new_err(format!("Bot state: {what}"));
        let state = state.cast::<PyDict>().map_err(|_| {
            bad(format!(
                "must be a dict of manifest and streams, got {} {}",
                args::type_name(state),
                args::quote(state)
            ))
        })?;
        let keys: Vec<String> = state.keys().iter().map(|k| args::quote(&k)).collect();
        if state.len() != 2 || keys.iter().any(|k| k != "'manifest'" && k != "'streams'") {
            return Err(bad(format!(
                "must have the keys manifest and streams, got [{}]",
                keys.join(", ")
            )));
        }
        let field = |k: &str| state.get_item(k).ok().flatten();
        let manifest = match field("manifest") {
            Some(m) if !m.is_none() => {
                let text = m.cast::<PyString>().map_err(|_| {
                    bad(format!(
                        "`manifest` must be a str or None, got {} {}",
                        args::type_name(&m),
                        args::quote(&m)
                    ))
                })?;
                Manifest::from_json(&text.to_cow()?).map_err(|e| bad(format!("`manifest`: {e}")))?
            }
            _ => Manifest::default(),
        };
        let streams_v = field("streams").expect("checked above");
        let streams: Vec<u128> = streams_v
            .extract::<Vec<u128>>()
            .ok()
            .filter(|s| s.len() == 2)
            .ok_or_else(|| {
                bad(format!(
                    "`streams` must be 2 ints from 0 to 2**128 - 1, got {}",
                    args::quote(&streams_v)
                ))
            })?;
        let bot = self.bot.get_mut();
        let rebuilt =
            NamedBot::with_state(bot.name(), bot.seed(), manifest, [streams[0], streams[1]])
                .expect("a known name");
        *bot = rebuilt;
        Ok(())
    }
}

/// The bot names `qe_core::bots` documents (`Bot` also takes any other name the core knows).
#[pyfunction]
pub fn bot_names() -> Vec<&'static str> {
    NAMES.to_vec()
}
