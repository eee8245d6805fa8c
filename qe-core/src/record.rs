//! Game records, `qe-record/1` (`RECORD.md`): read, write and replay.
//!
//! [`Record`] is plain data; JSON reading and writing ([`Record::from_json`], [`Record::to_json`])
//! need the `serde` feature.

use alloc::vec::Vec;

use crate::command::Command;
use crate::components::{AssetKind, Industry, Manifest, Nation, TileId, TokenId};
use crate::error::CommandError;
use crate::expansion::Expansions;
use crate::game::Game;
use crate::rules::{Rules, RulesBuilder};
use crate::setup::Setup;
use crate::setup_error::SetupError;

/// The format tag of this version of the record format.
pub const FORMAT: &str = "qe-record/1";

/// The largest record `Record::from_json` (feature `serde`) reads, in bytes (1 MiB). A legal
/// game's record, even indented, is a few tens of kilobytes: its commands are capped by
/// [`Rules::max_commands`].
pub const MAX_RECORD_BYTES: usize = 1 << 20;

/// Why JSON text that starts with a byte order mark (U+FEFF) is refused, or `None` when it does
/// not: JSON text has none (RFC 8259), though some editors write one. `what` names the text
/// (`"record"`, `"manifest"`). The one check of it: the record and manifest readers make it
/// (so the C ABI and Python give it), and the `qe` command names its input with it.
///
/// ```
/// assert_eq!(qe_core::byte_order_mark("{}", "record"), None);
/// assert!(qe_core::byte_order_mark("\u{feff}{}", "record").unwrap().contains("byte order mark"));
/// ```
pub fn byte_order_mark(text: &str, what: &str) -> Option<alloc::string::String> {
    text.starts_with('\u{feff}').then(|| {
        alloc::format!(
            "the {what} starts with a byte order mark (U+FEFF), which JSON text may not have: \
             save it as UTF-8 without one"
        )
    })
}

/// A game record: rules, set-up and every command played (`RECORD.md`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Record {
    /// 3, 4 or 5.
    pub players: u8,
    /// The expansions in play: the record's `expansions` list.
    pub expansions: Expansions,
    /// Each seat's nation (`None`: the default of R-SET-1).
    pub nations: Option<Vec<Nation>>,
    /// Each seat's industry token.
    pub industry_tokens: Vec<Industry>,
    /// The deck, top first.
    pub deck: Vec<TileId>,
    /// Each pile (gold, oil, crypto), top first; empty without Commodities.
    pub piles: [Vec<TokenId>; 3],
    /// A custom manifest (`None`: the default).
    pub manifest: Option<Manifest>,
    /// Provenance: the seed of the set-up, if it came from one. Replay ignores it.
    pub seed: Option<u64>,
    /// The commands in order. A command that was malformed in the JSON is kept as its error, so that
    /// replay reports it at its index (`RECORD.md`, "Replaying").
    pub commands: Vec<Result<Command, CommandError>>,
}

/// Why a replay stopped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The record itself is malformed; no command ran.
    #[error("bad record: {0}")]
    Setup(#[from] SetupError),
    /// Command `index` (0-based) was rejected.
    #[error("command {index}: {}: {error}", error.rule())]
    Command {
        /// The index of the rejected command.
        index: usize,
        /// Why.
        error: CommandError,
    },
}

impl Record {
    /// The record of `game` after `commands` (chance commands are folded into the deck and piles).
    /// A record lists the whole deck and piles, so in external-chance mode the tiles and tokens
    /// not yet revealed are written in an order of the set-up's own: the record replays to the
    /// same game so far, with that order as its future and without external chance.
    /// `None` in external-chance mode before the deal, and when the rules cannot be recorded: a
    /// record holds the player count, the expansion and the manifest, so custom scoring tables or
    /// bonuses ([`RulesBuilder`]) would not replay to the same game (`RECORD.md`).
    pub fn of(game: &Game, commands: &[Command], seed: Option<u64>) -> Option<Record> {
        if !game.is_dealt() {
            return None;
        }
        let rules = game.rules();
        let setup = game.setup_ref();
        let manifest = (*rules.manifest() != Manifest::default()).then(|| *rules.manifest());
        let mut recorded = RulesBuilder::new(rules.players()).expansions(rules.expansions());
        if let Some(m) = manifest {
            recorded = recorded.manifest(m);
        }
        if recorded.build().ok() != Some(*rules) {
            return None;
        }
        Some(Record {
            players: rules.players(),
            expansions: rules.expansions(),
            nations: Some(setup.nations().to_vec()),
            industry_tokens: setup.industries().to_vec(),
            deck: setup.deck().to_vec(),
            // Empty without Commodities (R-COM-1).
            piles: [AssetKind::Gold, AssetKind::Oil, AssetKind::Crypto]
                .map(|kind| setup.pile(kind).to_vec()),
            manifest,
            seed,
            commands: commands
                .iter()
                .filter(|c| !matches!(c, Command::Chance(_)))
                .map(|&c| Ok(c))
                .collect(),
        })
    }

    /// The rules the record describes.
    pub fn rules(&self) -> Result<Rules, SetupError> {
        let mut b = RulesBuilder::new(self.players).expansions(self.expansions);
        if let Some(m) = self.manifest {
            b = b.manifest(m);
        }
        b.build()
    }

    /// The validated set-up.
    pub fn setup(&self, rules: &Rules) -> Result<Setup, SetupError> {
        Setup::new(
            rules,
            self.nations.as_deref(),
            &self.industry_tokens,
            &self.deck,
            [&self.piles[0], &self.piles[1], &self.piles[2]],
        )
    }
}

#[cfg(feature = "serde")]
mod json {
    //! JSON reading and writing of records, by hand over `serde_json::Value` so that every error
    //! is precise and malformed commands are kept for replay to report at their index.

    use alloc::collections::BTreeMap;
    use alloc::format;
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    use serde_json::value::RawValue;
    use serde_json::Value;

    use super::{Record, FORMAT, MAX_RECORD_BYTES};
    use crate::command::json::{self as command_json, OutCommand};
    use crate::components::{AssetKind, Manifest, TileId, TokenId};
    use crate::expansion::{Expansion, Expansions};
    use crate::json::{self, ListError, Members, Whole};
    use crate::rules::Rules;
    use crate::setup_error::SetupError;
    use crate::shown::shown;

    fn bad(msg: impl Into<String>) -> SetupError {
        SetupError::Record(msg.into())
    }

    /// An object of a record, or why not (`what` names it in the message).
    fn object<'a>(raw: &'a RawValue, what: &str) -> Result<Members<'a>, SetupError> {
        Members::of(raw).map_err(|e| match e {
            None => bad(format!(
                "{what} must be an object, got `{}`",
                shown(raw.get())
            )),
            Some(m) => bad(format!("{what}: {m}")),
        })
    }

    /// A list of at most `cap` values of a record.
    fn items<'a>(
        raw: &'a RawValue,
        what: &str,
        cap: usize,
    ) -> Result<Vec<&'a RawValue>, SetupError> {
        json::list(raw, cap).map_err(|e| match e {
            ListError::NotAList => {
                bad(format!("{what} must be a list, got `{}`", shown(raw.get())))
            }
            ListError::TooLong => bad(format!("{what} has more than {cap} entries")),
            ListError::Syntax(m) => bad(format!("{what}: {m}")),
        })
    }

    /// A list of names (nations, tiles, tokens, industries).
    fn names<T: core::str::FromStr<Err = SetupError>>(
        raw: &RawValue,
        field: &str,
    ) -> Result<Vec<T>, SetupError> {
        // No list of names in a record is longer than the 21 tiles.
        items(raw, &format!("`{field}`"), TileId::COUNT)?
            .into_iter()
            .map(|x| {
                json::string(x)
                    .ok_or_else(|| {
                        bad(format!(
                            "`{field}` must be a list of names, got `{}` in it",
                            shown(x.get())
                        ))
                    })?
                    .parse()
            })
            .collect()
    }

    fn manifest(raw: &RawValue) -> Result<Manifest, SetupError> {
        let obj = object(raw, "`manifest`")?;
        if let Some(key) = obj.keys().find(|k| *k != "tiles" && *k != "tokens") {
            return Err(bad(format!("unknown manifest field `{}`", shown(key))));
        }
        let value_of = |id: &str, v: &RawValue| -> Result<u8, SetupError> {
            match json::whole(v) {
                Whole::Fits(x) => u8::try_from(x)
                    .ok()
                    .filter(|&x| x <= crate::components::MAX_VALUE)
                    .ok_or_else(|| SetupError::ValueOutOfRange {
                        id: id.into(),
                        value: x,
                    }),
                _ => Err(bad(format!(
                    "`manifest`: the value of {id} must be a whole number from 0 to {}, not {}",
                    crate::components::MAX_VALUE,
                    shown(v.get())
                ))),
            }
        };
        // RECORD.md: a manifest lists every tile and token ID, so both parts are required.
        let part = |name: &str| {
            obj.get(name).ok_or_else(|| {
                bad(format!(
                    "`manifest` must list every tile and token: `{name}` is missing"
                ))
            })
        };
        let mut tiles = [0; TileId::COUNT];
        let t = object(part("tiles")?, "`manifest.tiles`")?;
        // Keys are unique, so once each is a tile, 21 of them are every tile.
        let mut listed = 0u32;
        for (id, v) in &t.0 {
            let tile: TileId = id.parse()?;
            tiles[tile.index()] = value_of(id, v)?;
            listed |= 1 << tile.index();
        }
        if let Some(missing) = TileId::ALL.iter().find(|t| listed & (1 << t.index()) == 0) {
            return Err(bad(format!(
                "`manifest.tiles` must list all 21 tiles: {missing} is missing"
            )));
        }
        let mut kinds: [BTreeMap<u8, u8>; 3] = Default::default();
        for (id, v) in &object(part("tokens")?, "`manifest.tokens`")?.0 {
            let token: TokenId = id.parse()?;
            kinds[token.kind().index()].insert(token.number(), value_of(id, v)?);
        }
        let mut tokens: [Vec<u8>; 3] = Default::default();
        for (k, map) in kinds.iter().enumerate() {
            for (i, (&num, &val)) in map.iter().enumerate() {
                if num as usize != i + 1 {
                    return Err(bad(format!(
                        "`manifest.tokens`: {} tokens must be numbered from 1 without gaps",
                        AssetKind::ALL[k]
                    )));
                }
                tokens[k].push(val);
            }
        }
        Manifest::new(tiles, [&tokens[0], &tokens[1], &tokens[2]])
    }

    impl Manifest {
        /// Reads a manifest in the record format (`{"tiles": {...}, "tokens": {...}}`,
        /// `RECORD.md`: both parts, every tile and token ID), validated as [`Manifest::new`] does.
        pub fn from_json(text: &str) -> Result<Manifest, SetupError> {
            if let Some(m) = super::byte_order_mark(text, "manifest") {
                return Err(bad(m));
            }
            if text.len() > MAX_RECORD_BYTES {
                return Err(bad(format!(
                    "a manifest is at most {MAX_RECORD_BYTES} bytes, this one has {}",
                    text.len()
                )));
            }
            let raw: &RawValue = serde_json::from_str(text).map_err(|e| {
                if text.trim_start().starts_with('{') {
                    bad(format!("invalid JSON: {e}"))
                } else {
                    bad(format!("invalid JSON, got `{}`: {e}", shown(text.trim())))
                }
            })?;
            manifest(raw)
        }
    }

    impl Record {
        /// Reads a `qe-record/1` JSON document. Malformed records are rejected with a clear
        /// message: invalid JSON, a key given twice, a document over [`MAX_RECORD_BYTES`], or more
        /// commands than a legal game can have ([`Rules::max_commands`]) are rejected before any
        /// command is read. Malformed commands are kept for [`Record::replay`] to report at their
        /// index.
        ///
        /// ```
        /// use qe_core::{Command, Match, Record, ReplayError, Rules, Seat};
        /// let err = Record::from_json(r#"{"format": "qe-record/1", "format": "x"}"#).unwrap_err();
        /// assert_eq!(err.rule(), "RECORD");
        /// assert!(err.to_string().contains("duplicate key `format`"));
        /// // A malformed command reads, and stops the replay at its index (R-AUC-4).
        /// let mut m = Match::seeded(Rules::base(4).unwrap(), 5);
        /// m.apply(Command::Bid { seat: Seat(0), amount: 2 }).unwrap();
        /// let json = m.record().unwrap().to_json().replace(r#""bid":2"#, r#""bid":-2"#);
        /// let record = Record::from_json(&json).unwrap();
        /// let Err(ReplayError::Command { index, error }) = record.replay() else { panic!() };
        /// assert_eq!((index, error.rule()), (0, "R-AUC-4"));
        /// ```
        pub fn from_json(text: &str) -> Result<Record, SetupError> {
            Record::from_json_with_manifest(text, None)
        }

        /// [`Record::from_json`], with `manifest` standing in for a record that has no manifest
        /// of its own (a record's own manifest wins).
        pub fn from_json_with_manifest(
            text: &str,
            manifest_default: Option<Manifest>,
        ) -> Result<Record, SetupError> {
            if let Some(m) = super::byte_order_mark(text, "record") {
                return Err(bad(m));
            }
            if text.len() > MAX_RECORD_BYTES {
                return Err(bad(format!(
                    "a record is at most {MAX_RECORD_BYTES} bytes, this one has {}",
                    text.len()
                )));
            }
            let obj = Members::parse(text).map_err(|e| match e {
                None => bad(format!(
                    "a record is a JSON object, got `{}`",
                    shown(text.trim())
                )),
                Some(m) if text.trim_start().starts_with('{') => bad(format!("invalid JSON: {m}")),
                Some(m) => bad(format!("invalid JSON, got `{}`: {m}", shown(text.trim()))),
            })?;
            const FIELDS: [&str; 10] = [
                "format",
                "players",
                "expansions",
                "nations",
                "industry_tokens",
                "deck",
                "piles",
                "manifest",
                "seed",
                "commands",
            ];
            if let Some(k) = obj.keys().find(|k| !FIELDS.contains(k)) {
                return Err(bad(format!("unknown field `{}`", shown(k))));
            }
            let need = |k: &str| {
                obj.get(k)
                    .ok_or_else(|| bad(format!("missing field `{k}`")))
            };
            let format_v = need("format")?;
            match json::string(format_v).as_deref() {
                Some(FORMAT) => {}
                _ => {
                    return Err(bad(format!(
                        "`format` must be \"{FORMAT}\", not {}",
                        shown(format_v.get())
                    )))
                }
            }
            let players_v = need("players")?;
            let Whole::Fits(players) = json::whole(players_v) else {
                // Any whole number is R-SET-1's, however far out of range; other text is not a
                // count at all.
                // (written as JSON writes it: `-0` or `3.0` is quoted as given).
                return Err(match players_v.get().parse::<i128>() {
                    Ok(players) if players.to_string() == players_v.get() => {
                        SetupError::Players { players }
                    }
                    _ => bad(format!(
                        "`players` must be 3, 4 or 5, not {}",
                        shown(players_v.get())
                    )),
                });
            };
            if !(3..=5).contains(&players) {
                return Err(SetupError::Players {
                    players: i128::from(players),
                });
            }
            let players = players as u8;
            let mut expansions = Expansions::NONE;
            if let Some(e) = obj.get("expansions") {
                for x in items(e, "`expansions`", 8)? {
                    let Some(name) = json::string(x) else {
                        return Err(bad(format!(
                            "`expansions` entries are names, got {}",
                            shown(x.get())
                        )));
                    };
                    expansions = expansions
                        .with_name(&name)
                        .map_err(|e| bad(e.to_string()))?;
                }
            }
            let commodities = expansions.contains(Expansion::Commodities);
            let nations = match obj.get("nations") {
                Some(v) => Some(names(v, "nations")?),
                None => None,
            };
            let industry_tokens = names(need("industry_tokens")?, "industry_tokens")?;
            let deck = names(need("deck")?, "deck")?;
            let mut piles: [Vec<TokenId>; 3] = Default::default();
            match obj.get("piles") {
                // Even empty: RECORD.md gives `piles` to games with the expansion only.
                Some(_) if !commodities => {
                    return Err(SetupError::Piles(crate::setup::PILES_WITHOUT_COMMODITIES))
                }
                Some(p) => {
                    let p = object(p, "`piles`")?;
                    for (name, list_v) in &p.0 {
                        let kind: AssetKind = name.parse()?;
                        let tokens: Vec<TokenId> = names(list_v, "piles")?;
                        if tokens.iter().any(|t| t.kind() != kind) {
                            return Err(bad(format!(
                                "the {kind} pile holds tokens of another kind"
                            )));
                        }
                        piles[kind.index()] = tokens;
                    }
                    if commodities && p.len() != 3 {
                        return Err(bad("`piles` must have the gold, oil and crypto piles"));
                    }
                }
                None if commodities => {
                    return Err(bad("missing field `piles` (Commodities is on)"))
                }
                None => {}
            }
            let manifest = match obj.get("manifest") {
                Some(m) => Some(manifest(m)?),
                None => manifest_default,
            };
            let seed = match obj.get("seed").map(|v| (v, json::whole(v))) {
                Some((_, Whole::Fits(s))) => Some(s),
                Some((v, _)) => {
                    return Err(bad(format!(
                        "`seed` must be a whole number from 0 to 18446744073709551615, not {}",
                        shown(v.get())
                    )))
                }
                None => None,
            };
            let cap = Rules::max_commands_of(players);
            let raw_commands = need("commands")?;
            let commands = json::list(raw_commands, cap)
                .map_err(|e| match e {
                    ListError::NotAList => bad(format!(
                        "`commands` must be a list, got `{}`",
                        shown(raw_commands.get())
                    )),
                    ListError::TooLong => bad(format!(
                        "`commands` has more than {cap} commands, the most a legal \
                         {players}-player game can have"
                    )),
                    ListError::Syntax(m) => bad(format!("`commands`: {m}")),
                })?
                .into_iter()
                .map(|c| command_json::read(c.get(), false))
                .collect();
            let record = Record {
                players,
                expansions,
                nations,
                industry_tokens,
                deck,
                piles,
                manifest,
                seed,
                commands,
            };
            // Validate rules and set-up now, so a malformed record fails before any command.
            let rules = record.rules()?;
            record.setup(&rules)?;
            Ok(record)
        }

        /// Writes the record as compact JSON (field order as in `RECORD.md`). A command kept as
        /// its error is written as `{"malformed": "<what was wrong>"}` (a form `RECORD.md` does
        /// not define). [`Record::from_json`] reads that back as a malformed command whose reason
        /// is that text, so a replay still stops at its index, but under rule R-AUC-12 and code
        /// 118 whatever the first error was (an amount out of range, R-AUC-4 and 107, for one);
        /// the JSON it was first read from is not kept. Written again, the record is the same.
        ///
        /// ```
        /// use qe_core::{Command, Match, Record, Rules, Seat};
        /// let mut m = Match::seeded(Rules::commodities(4).unwrap(), 5);
        /// m.apply(Command::Bid { seat: Seat(0), amount: 2 }).unwrap();
        /// let record = m.record().unwrap();
        /// let json = record.to_json();
        /// assert!(json.starts_with(r#"{"format":"qe-record/1","players":4,"#));
        /// assert!(json.ends_with(r#""seed":5,"commands":[{"seat":0,"bid":2}]}"#));
        /// let read = Record::from_json(&json).unwrap();
        /// assert_eq!(read, record);
        /// assert_eq!(read.to_json(), json);
        /// assert_eq!(read.replay().unwrap().game(), m.game());
        /// ```
        pub fn to_json(&self) -> String {
            serde_json::to_string(&self.out()).expect("a record serializes")
        }

        /// Writes the record as indented JSON.
        pub fn to_json_pretty(&self) -> String {
            serde_json::to_string_pretty(&self.out()).expect("a record serializes")
        }

        /// The record as a JSON value.
        pub fn to_value(&self) -> Value {
            serde_json::to_value(self.out()).expect("a record serializes")
        }

        fn out(&self) -> Out<'_> {
            let strings = |xs: &mut dyn Iterator<Item = String>| xs.collect::<Vec<_>>();
            let manifest = self.manifest.as_ref().map(OutManifest::of);
            Out {
                format: FORMAT,
                players: self.players,
                expansions: self.expansions.names().collect(),
                nations: self
                    .nations
                    .as_ref()
                    .map(|n| strings(&mut n.iter().map(ToString::to_string))),
                industry_tokens: strings(&mut self.industry_tokens.iter().map(ToString::to_string)),
                deck: strings(&mut self.deck.iter().map(ToString::to_string)),
                piles: self
                    .expansions
                    .contains(Expansion::Commodities)
                    .then(|| OutPiles {
                        gold: strings(&mut self.piles[0].iter().map(ToString::to_string)),
                        oil: strings(&mut self.piles[1].iter().map(ToString::to_string)),
                        crypto: strings(&mut self.piles[2].iter().map(ToString::to_string)),
                    }),
                manifest,
                seed: self.seed,
                commands: self.commands.iter().map(OutCommand::of).collect(),
            }
        }
    }

    #[derive(serde::Serialize)]
    struct Out<'a> {
        format: &'static str,
        players: u8,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        expansions: Vec<&'static str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        nations: Option<Vec<String>>,
        industry_tokens: Vec<String>,
        deck: Vec<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        piles: Option<OutPiles>,
        #[serde(skip_serializing_if = "Option::is_none")]
        manifest: Option<OutManifest>,
        #[serde(skip_serializing_if = "Option::is_none")]
        seed: Option<u64>,
        commands: Vec<OutCommand<'a>>,
    }

    #[derive(serde::Serialize)]
    struct OutPiles {
        gold: Vec<String>,
        oil: Vec<String>,
        crypto: Vec<String>,
    }

    #[derive(serde::Serialize)]
    struct OutManifest {
        tiles: BTreeMap<String, u8>,
        tokens: BTreeMap<String, u8>,
    }

    impl OutManifest {
        fn of(man: &Manifest) -> OutManifest {
            OutManifest {
                tiles: TileId::ALL
                    .iter()
                    .map(|t| (t.to_string(), man.tile_value(*t)))
                    .collect(),
                tokens: man
                    .tokens()
                    .map(|t| (t.to_string(), man.token_value(t).unwrap_or(0)))
                    .collect(),
            }
        }
    }

    impl Manifest {
        /// The manifest as a record's `manifest` field writes it, which [`Manifest::from_json`]
        /// reads back.
        pub fn to_json(&self) -> String {
            serde_json::to_string(&OutManifest::of(self)).expect("a manifest serializes")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Record;
    use crate::command::Command;
    use crate::game::{plain, Game};
    use crate::rules::Rules;

    /// A game replayed from its record (seeded or in external-chance mode) keeps the same ledger and
    /// tallies, and scores the same outcome, as the game it records.
    #[test]
    fn the_holdings_kept_replay_from_a_record() {
        for rules in Rules::every_variant() {
            for seed in 0..40 {
                let mut rng = plain::TestRng(crate::mix_seed(seed) | 1);
                let mut game = if seed % 2 == 1 {
                    Game::external_chance(rules, None).unwrap()
                } else {
                    Game::seeded(rules, seed)
                };
                let mut commands = alloc::vec::Vec::new();
                while !game.is_over() {
                    let command = plain::random_command(&game, &mut rng);
                    game.play(command).expect("legal");
                    commands.push(command);
                }
                let record = Record::of(&game, &commands, None).expect("a recordable game");
                let setup = record.setup(&rules).unwrap();
                let mut replayed = Game::new(rules, setup).unwrap();
                for &command in commands.iter().filter(|c| !matches!(c, Command::Chance(_))) {
                    replayed.play(command).expect("legal");
                }
                assert_eq!(replayed.kept(), game.kept());
                assert_eq!(replayed.outcome(), game.outcome());
                assert_eq!(replayed.outcome(), replayed.outcome_from_log());
            }
        }
    }
}
