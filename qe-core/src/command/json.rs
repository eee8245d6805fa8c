//! The one command reader and writer: JSON in the record format (`RECORD.md`), used by records,
//! the C ABI, Python, the `qe` command and the WebAssembly package (feature `serde`). Reading is by
//! hand over `serde_json`'s raw values, so every error names its rule and what was wrong.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::value::RawValue;
use serde_json::Value;

use super::{ChanceOutcome, Command};
use crate::components::Industry;
use crate::error::CommandError;
use crate::json::{self, Members, Whole};
use crate::seat::{Seat, MAX_SEATS};
use crate::shown::{shown, shown_at_most, shown_keys};

fn malformed(reason: String, rule: &'static str) -> CommandError {
    CommandError::Malformed { reason, rule }
}

/// The most characters of a written-out malformed command's reason that reading it back keeps
/// (the engine's own reasons are far shorter).
const MALFORMED_REASON_MAX: usize = 1000;

/// How a record writes a command kept as its error: `{"malformed": <this>}`: the error's
/// message, but for a [`CommandError::Malformed`] its reason alone (without the "malformed
/// command: " its message starts with), which is what reading the form back gives as the
/// reason, so that a record written again gives the same text.
pub(crate) fn malformed_text(e: &CommandError) -> String {
    match e {
        CommandError::Malformed { reason, .. } => reason.clone(),
        e => e.to_string(),
    }
}

/// Reads one command; a malformed one becomes its error (`RECORD.md`). `chance`: whether a
/// chance outcome (`{"chance": {...}}`, external-chance mode, R-SET-3) is a command here; a
/// record holds none (its deck and piles say what chance dealt).
pub(crate) fn read(text: &str, chance: bool) -> Result<Command, CommandError> {
    let obj = Members::parse(text).map_err(|e| match e {
        None => malformed(
            format!("a command is a JSON object, got `{}`", shown(text.trim())),
            "R-AUC-12",
        ),
        // An object with a repeated key or a syntax error inside: the error says where.
        Some(m) if text.trim_start().starts_with('{') => {
            malformed(format!("a command is a JSON object: {m}"), "R-AUC-12")
        }
        Some(m) => malformed(
            format!(
                "a command is a JSON object, got `{}`: {m}",
                shown(text.trim())
            ),
            "R-AUC-12",
        ),
    })?;
    if let (true, Some(c)) = (chance, obj.get("chance")) {
        if obj.len() != 1 {
            let others = shown_keys(obj.keys().filter(|k| *k != "chance"));
            return Err(malformed(
                format!("a chance outcome has no other field, found {others}"),
                "R-SET-3",
            ));
        }
        return chance_outcome(c).map(Command::Chance);
    }
    // In a record, a command the writer kept as its error (`Record::to_json`) reads back as
    // a malformed command with its text. Elsewhere `malformed` is an unknown action.
    let written = (
        chance,
        obj.len(),
        obj.get("malformed").and_then(json::string),
    );
    if let (false, 1, Some(reason)) = written {
        return Err(malformed(
            shown_at_most(&reason, MALFORMED_REASON_MAX),
            "R-AUC-12",
        ));
    }
    let seat = match obj.get("seat").map(|v| (v, json::whole(v))) {
        Some((_, Whole::Fits(s))) => s,
        Some((v, _)) => {
            return Err(malformed(
                format!("seat must be a whole number, not {}", shown(v.get())),
                "R-AUC-12",
            ))
        }
        None => return Err(malformed("a command names its seat".into(), "R-AUC-12")),
    };
    let seat = u8::try_from(seat).map_err(|_| CommandError::SeatOutOfRange {
        seat: i64::try_from(seat).unwrap_or(i64::MAX),
    })?;
    let actions: Vec<&(String, &RawValue)> = obj.0.iter().filter(|(k, _)| k != "seat").collect();
    let [(name, value)] = actions.as_slice() else {
        let names = shown_keys(actions.iter().map(|(k, _)| k.as_str()));
        return Err(malformed(
            format!("a command has exactly one action, found {names}"),
            "R-AUC-12",
        ));
    };
    let seat = Seat(seat);
    match name.as_str() {
        "bid" => match json::whole(value) {
            Whole::Fits(amount) => Ok(Command::Bid { seat, amount }),
            Whole::OutOfRange | Whole::NotANumber => Err(CommandError::BidOutOfRange {
                text: shown(value.get()),
            }),
        },
        "take_asset" | "discard_asset" => Command::with_pile(
            seat,
            json::string(value).and_then(|s| s.parse().ok()),
            name.as_str() == "discard_asset",
            || shown(value.get()),
        ),
        "peek" => {
            let turn = match json::whole(value) {
                Whole::Fits(turn) => Some(turn),
                _ => None,
            };
            Command::from_peek_turn(seat, turn, || shown(value.get()))
        }
        other => Err(malformed(
            format!("unknown action `{}`", shown(other)),
            "R-AUC-12",
        )),
    }
}

/// A chance outcome: `{"deal": [industry, ...]}`, `{"reveal": tile}` or `{"draw": token}`.
fn chance_outcome(raw: &RawValue) -> Result<ChanceOutcome, CommandError> {
    let bad = |what: &str| malformed(format!("bad chance outcome: {what}"), "R-SET-3");
    let obj = Members::of(raw).map_err(|e| match e {
        None => bad(&format!(
            "a chance outcome is an object, got `{}`",
            shown(raw.get())
        )),
        Some(m) => bad(&m),
    })?;
    let [(name, value)] = obj.0.as_slice() else {
        return Err(bad("expected exactly one of deal, reveal or draw"));
    };
    let name_of = |v: &RawValue| json::string(v);
    match name.as_str() {
        "deal" => {
            let not_a_deal = || {
                bad(&format!(
                    "deal takes a list of 1 to {MAX_SEATS} industries, one per token dealt \
                     (4 with 3 players, the last one set aside; 4 with 4; 5 with 5), not {}",
                    shown(value.get())
                ))
            };
            let list = json::list(value, MAX_SEATS).map_err(|_| not_a_deal())?;
            let tokens = list
                .iter()
                .map(|x| {
                    name_of(x)
                        .and_then(|s| s.parse().ok())
                        .ok_or_else(|| bad(&format!("deal: unknown industry {}", shown(x.get()))))
                })
                .collect::<Result<Vec<Industry>, _>>()?;
            ChanceOutcome::deal(&tokens).ok_or_else(not_a_deal)
        }
        "reveal" => name_of(value)
            .and_then(|s| s.parse().ok())
            .map(ChanceOutcome::Reveal)
            .ok_or_else(|| {
                bad(&format!(
                    "reveal takes a tile id, not {}",
                    shown(value.get())
                ))
            }),
        "draw" => name_of(value)
            .and_then(|s| s.parse().ok())
            .map(ChanceOutcome::Draw)
            .ok_or_else(|| {
                bad(&format!(
                    "draw takes a token id, not {}",
                    shown(value.get())
                ))
            }),
        other => Err(bad(&format!(
            "expected deal, reveal or draw, not `{}`",
            shown(other)
        ))),
    }
}

impl Command {
    /// Reads one command in the record format (`{"seat": 0, "bid": 5}`, `RECORD.md`), or a
    /// chance outcome for external-chance mode (`{"chance": {"reveal": "US-AGR"}}`, R-SET-3):
    /// the one command reader of every binding. A malformed command is an error naming its
    /// rule, as replay would report it; a key given twice is malformed (R-AUC-12).
    ///
    /// ```
    /// use qe_core::{Command, Seat};
    /// assert_eq!(Command::from_json(r#"{"seat": 1, "bid": 7}"#),
    ///            Ok(Command::Bid { seat: Seat(1), amount: 7 }));
    /// assert_eq!(Command::from_json(r#"{"seat": 1, "bid": -1}"#).unwrap_err().rule(), "R-AUC-4");
    /// let twice = Command::from_json(r#"{"seat": 3, "seat": 0, "bid": 5}"#).unwrap_err();
    /// assert!(twice.to_string().contains("duplicate key `seat`"));
    /// ```
    pub fn from_json(text: &str) -> Result<Command, CommandError> {
        if text.len() > MAX_COMMAND_BYTES {
            return Err(malformed(
                format!(
                    "a command is at most {MAX_COMMAND_BYTES} bytes of JSON, got {}",
                    text.len()
                ),
                "R-AUC-12",
            ));
        }
        read(text, true)
    }

    /// The command as JSON text in the record format (chance outcomes as
    /// `{"chance": {...}}`); [`Command::from_json`] reads it back. A deal is written with all
    /// its [`MAX_SEATS`] entries; [`Command::to_json_for`] writes the tokens dealt only.
    ///
    /// ```
    /// use qe_core::{Command, Seat};
    /// let bid = Command::Bid { seat: Seat(2), amount: 0 };
    /// assert_eq!(bid.to_json(), r#"{"seat":2,"bid":0}"#);
    /// assert_eq!(Command::from_json(&bid.to_json()), Ok(bid));
    /// ```
    pub fn to_json(&self) -> String {
        self.to_json_for(MAX_SEATS as u8)
    }

    /// As [`Command::to_json`], for a game of `players` seats: a deal is written as the tokens
    /// it deals ([`ChanceOutcome::dealt`]: 4 entries for 3 or 4 players, 5 for 5).
    ///
    /// ```
    /// use qe_core::{ChanceOutcome, Command, Industry};
    /// let [a, h, f, m] = [Industry::AGR, Industry::HOU, Industry::FIN, Industry::MAN];
    /// let deal = Command::Chance(ChanceOutcome::deal(&[h, a, m, f]).unwrap());
    /// assert_eq!(deal.to_json_for(4), r#"{"chance":{"deal":["HOU","AGR","MAN","FIN"]}}"#);
    /// assert_eq!(Command::from_json(&deal.to_json_for(4)), Ok(deal));
    /// ```
    pub fn to_json_for(&self, players: u8) -> String {
        let Command::Chance(outcome) = *self else {
            return serde_json::to_string(&OutCommand::of(&Ok(*self)))
                .expect("a command serializes");
        };
        let inner = match outcome {
            ChanceOutcome::Deal(d) => {
                let dealt = outcome.dealt(players).unwrap_or(&d);
                let names: Vec<&str> = dealt.iter().map(|i| i.name()).collect();
                serde_json::json!({ "deal": names })
            }
            ChanceOutcome::Reveal(t) => serde_json::json!({ "reveal": t.to_string() }),
            ChanceOutcome::Draw(t) => serde_json::json!({ "draw": t.to_string() }),
        };
        serde_json::json!({ "chance": inner }).to_string()
    }
}

/// Serializes a command in its record form, as [`Command::to_json`] writes it (`{"seat":0,"bid":5}`,
/// `{"chance":{"reveal":"US-AGR"}}`), through any serde serializer: the same keys in the same
/// order, and a seat's command with its values typed as the command holds them (the seat and a
/// peek's turn `u8`, a bid `u64`), so a serializer that writes integers by their type (a
/// JavaScript one that makes `u64` a `BigInt`) tells an amount from a seat.
///
/// ```
/// use qe_core::{AssetKind, ChanceOutcome, Command, Seat, TileId};
/// let seat = Seat(3);
/// for c in [
///     Command::Bid { seat, amount: u64::MAX },
///     Command::TakeAsset { seat, kind: AssetKind::Gold },
///     Command::DiscardAsset { seat, kind: AssetKind::Crypto },
///     Command::Peek { seat, turn: 4 },
///     Command::Chance(ChanceOutcome::Reveal(TileId::ALL[0])),
/// ] {
///     assert_eq!(serde_json::to_string(&c).unwrap(), c.to_json());
/// }
/// ```
impl serde::Serialize for Command {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if !matches!(self, Command::Chance(_)) {
            return OutCommand::of(&Ok(*self)).serialize(serializer);
        }
        let value: Value =
            serde_json::from_str(&self.to_json()).map_err(serde::ser::Error::custom)?;
        value.serialize(serializer)
    }
}

/// Reads a command in its record form with [`Command::from_json`]'s rules (a key given twice, an
/// unknown action or a bid out of range is an error naming its rule).
impl<'de> serde::Deserialize<'de> for Command {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Command, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Command::from_json(&value.to_string())
            .map_err(|e| serde::de::Error::custom(format!("{}: {e}", e.rule())))
    }
}

/// The longest command JSON [`Command::from_json`] reads: far more than any command needs.
pub const MAX_COMMAND_BYTES: usize = 4096;

#[derive(serde::Serialize, Default)]
pub(crate) struct OutCommand<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    seat: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bid: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    take_asset: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    discard_asset: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    peek: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    malformed: Option<String>,
    #[serde(skip)]
    _life: core::marker::PhantomData<&'a ()>,
}

impl OutCommand<'_> {
    pub(crate) fn of(c: &Result<Command, CommandError>) -> Self {
        let mut o = OutCommand::default();
        match c {
            Ok(c) => {
                o.seat = c.seat().map(|s| s.0);
                match *c {
                    Command::Bid { amount, .. } => o.bid = Some(amount),
                    Command::TakeAsset { kind, .. } => o.take_asset = Some(kind.name()),
                    Command::DiscardAsset { kind, .. } => o.discard_asset = Some(kind.name()),
                    Command::Peek { turn, .. } => o.peek = Some(turn),
                    Command::Chance(_) => {}
                }
            }
            Err(e) => o.malformed = Some(malformed_text(e)),
        }
        o
    }
}
