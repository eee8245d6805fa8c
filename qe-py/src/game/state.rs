//! A game's pickled state (`__getstate__` / `__setstate__`): JSON text that replays to the same
//! game, read back with every field checked.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use qe_core::encoding::{ActionSpace, BidLadder};
use qe_core::{Game, Match, Seat};

use super::PyGame;
use crate::errors::{command_error, ladder_error, setup_error};
use crate::setup::rules;
use crate::{command, records};

impl PyGame {
    /// The game's pickled state: JSON text of the rules, the action space and either the record
    /// (a seeded game) or the commands and the nations (external chance).
    pub(super) fn state_json(&self) -> String {
        let g = self.game();
        let ladder: Vec<serde_json::Value> = self
            .space
            .ladder()
            .amounts()
            .iter()
            .map(|&a| a.into())
            .collect();
        let mut state = serde_json::json!({
            "v": 1,
            "players": g.players(),
            "commodities": g.rules().has_commodities(),
            "expansions": g.rules().expansions().names().collect::<Vec<_>>(),
            "external": g.is_external_chance(),
            "peeks": self.space.has_peeks(),
            "ladder": ladder,
        });
        if g.is_external_chance() {
            state["commands"] = self
                .m
                .commands()
                .iter()
                .map(|c| command::to_json(c, g.players()))
                .collect::<Vec<_>>()
                .into();
            state["nations"] = (0..g.players())
                .map(|s| serde_json::Value::from(g.nation(Seat(s)).name()))
                .collect::<Vec<_>>()
                .into();
        } else {
            state["record"] = self.m.record().map(|r| r.to_json()).into();
        }
        state.to_string()
    }

    /// The game of a state [`PyGame::state_json`] wrote; every field is checked, none coerced.
    pub(super) fn from_state(py: Python<'_>, text: &str) -> PyResult<PyGame> {
        let bad = |m: &str| PyValueError::new_err(format!("bad pickled qe.Game state: {m}"));
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| bad(&e.to_string()))?;
        // Every field is checked, none coerced: a tampered state is an error naming the field.
        let field = |k: &str| v.get(k).ok_or_else(|| bad(&format!("missing `{k}`")));
        let flag = |k: &str| {
            let x = field(k)?;
            x.as_bool()
                .ok_or_else(|| bad(&format!("`{k}` must be true or false, got {x}")))
        };
        if field("v")?.as_u64() != Some(1) {
            return Err(bad(&format!("unknown version {}", field("v")?)));
        }
        let ladder_v = field("ladder")?;
        let ladder = ladder_v
            .as_array()
            .ok_or_else(|| bad(&format!("`ladder` must be a list, got {ladder_v}")))?
            .iter()
            .map(|a| {
                a.as_u64()
                    .ok_or_else(|| bad(&format!("`ladder` entries must be whole numbers, got {a}")))
            })
            .collect::<PyResult<Vec<u64>>>()?;
        let ladder = BidLadder::new(&ladder).map_err(|e| ladder_error(py, &e))?;
        let space = ActionSpace::new(ladder, flag("peeks")?);
        let m = if flag("external")? {
            let players_v = field("players")?;
            let players = players_v
                .as_u64()
                .and_then(|p| u8::try_from(p).ok())
                .ok_or_else(|| bad(&format!("`players` must be 3, 4 or 5, got {players_v}")))?;
            // States written before `expansions` existed have only `commodities`.
            let expansions = match v.get("expansions") {
                None => None,
                Some(list) => Some(
                    list.as_array()
                        .ok_or_else(|| bad(&format!("`expansions` must be a list, got {list}")))?
                        .iter()
                        .map(|n| {
                            n.as_str().map(str::to_owned).ok_or_else(|| {
                                bad(&format!("`expansions` entries are names, got {n}"))
                            })
                        })
                        .collect::<PyResult<Vec<String>>>()?,
                ),
            };
            let commodities = flag("commodities")?;
            // The two ways of naming Commodities must agree (the state writes both).
            let listed = expansions.as_ref().map(|names| {
                names
                    .iter()
                    .any(|n| n == qe_core::Expansion::Commodities.name())
            });
            if listed.is_some_and(|listed| listed != commodities) {
                return Err(bad(&format!(
                    "`commodities` is {commodities}, but `expansions` is {}",
                    field("expansions")?
                )));
            }
            let set =
                qe_core::Expansions::from_names(expansions.iter().flatten().map(String::as_str))
                    .map_err(|e| bad(&e.to_string()))?
                    .set(qe_core::Expansion::Commodities, commodities);
            let r = rules(py, players, set)?;
            let nations_v = field("nations")?;
            let nations: Vec<qe_core::Nation> = nations_v
                .as_array()
                .ok_or_else(|| bad(&format!("`nations` must be a list, got {nations_v}")))?
                .iter()
                .map(|n| {
                    n.as_str()
                        .and_then(|s| s.parse().ok())
                        .ok_or_else(|| bad(&format!("unknown nation {n}")))
                })
                .collect::<PyResult<_>>()?;
            let game = Game::external_chance(r, Some(&nations)).map_err(|e| setup_error(py, &e))?;
            let mut m = Match::new(game);
            for c in field("commands")?
                .as_array()
                .ok_or_else(|| bad("`commands` must be a list"))?
            {
                let c = command::from_json(c).map_err(|e| command_error(py, &e))?;
                m.apply(c).map_err(|e| command_error(py, &e))?;
            }
            m
        } else {
            let text = field("record")?
                .as_str()
                .ok_or_else(|| bad("`record` must be a string"))?;
            let m = records::replay(py, text)?;
            // The record decides the game; what the state says of it must agree.
            let rules = m.game().rules();
            let expansions: Vec<&str> = rules.expansions().names().collect();
            for (k, said) in [
                ("players", serde_json::Value::from(rules.players())),
                ("commodities", rules.has_commodities().into()),
                ("expansions", expansions.into()),
            ] {
                match v.get(k) {
                    Some(x) if *x != said => {
                        return Err(bad(&format!(
                            "`{k}` is {x}, but the record's game has {said}"
                        )))
                    }
                    _ => {}
                }
            }
            m
        };
        // The fields `state_json` writes: the common ones, then those of its kind of game.
        let own: &[&str] = if m.game().is_external_chance() {
            &["commands", "nations"]
        } else {
            &["record"]
        };
        let common = [
            "v",
            "players",
            "commodities",
            "expansions",
            "external",
            "peeks",
            "ladder",
        ];
        let known = |k: &str| common.contains(&k) || own.contains(&k);
        if let Some(k) = v.as_object().and_then(|o| o.keys().find(|k| !known(k))) {
            return Err(bad(&format!("unknown field `{}`", qe_core::shown(k))));
        }
        Ok(PyGame::with(m, space))
    }
}
