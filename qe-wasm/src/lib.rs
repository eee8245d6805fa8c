//! `qe-wasm`: the WebAssembly binding of `qe-core`, published as the npm package `qe-engine`.
//!
//! Thin over the core, like the Python package: [`Game`] wraps a [`Match`] (a game with its
//! history), [`Bot`] is a [`NamedBot`] (every name [`qe_core::bots::NAMES`] lists), commands are
//! read by the one command reader [`Command::from_json`], records by [`Record::from_json`], and
//! views, events, outcomes and spend bounds are handed out as the serde form of the core's types
//! (`to_js`). Nothing here decides a rule, a visibility, a name or an error code.
//!
//! **Exact integers.** Every 64-bit or wider integer of the core's types (bids, prices, seeds,
//! totals spent) reaches JavaScript as a `BigInt`, never a `number`. Going in, an integer may be a
//! `BigInt` or a `number` that is a safe integer (`Number.isSafeInteger`); any other integral
//! `number` is a `RangeError`, since it may not be the integer the caller wrote ([`json`]).
//!
//! **Errors.** A command or set-up the rules reject is a thrown `QeError` (`js/qe-error.js`)
//! carrying the core's rule ID and stable code ([`CommandError::rule`], [`CommandError::code`],
//! the table [`qe_core::ERROR_CODES`]), and `index` for a record's illegal command. An argument
//! of the wrong JavaScript type is a `TypeError`, a value out of its range a `RangeError`, as in
//! JavaScript's own APIs. A panic (a bug in qe) is caught by the panic hook of [`start`] and the
//! package's entry module turns the trap into a `QePanic` error; the instance stays usable.

use std::cell::RefCell;

use qe_core::bots::{NamedBot, NAMES};
use qe_core::{
    AssetKind, Command, CommandError, Expansion, Expansions, Match, Record, ReplayError, Rules,
    Seat, SetupError, TileId,
};
use wasm_bindgen::prelude::*;

pub mod json;

#[wasm_bindgen(raw_module = "./qe-error.js")]
extern "C" {
    /// The package's error class (`js/qe-error.js`): `new QeError(message, rule, code, index)`.
    #[wasm_bindgen(js_name = QeError)]
    type JsQeError;
    #[wasm_bindgen(constructor, js_class = "QeError")]
    fn new(message: &str, rule: &str, code: u32, index: Option<u32>) -> JsQeError;
}

// ------------------------------------------------------------------------------------------------
// Errors

/// A `QeError` with the rule ID and code the core gives `e`, the message as every binding writes
/// it (`R-AUC-3: bid equals the auctioneer's bid (5)`).
fn command_error(e: &CommandError) -> JsValue {
    JsQeError::new(&format!("{}: {e}", e.rule()), e.rule(), e.code(), None).into()
}

/// A `QeError` for rules, a set-up or a record the core rejects.
fn setup_error(e: &SetupError) -> JsValue {
    JsQeError::new(&format!("{}: {e}", e.rule()), e.rule(), e.code(), None).into()
}

/// A `QeError` for a record that could not be replayed: a bad record, or the command at `index`.
fn replay_error(e: &ReplayError) -> JsValue {
    match e {
        ReplayError::Setup(s) => setup_error(s),
        ReplayError::Command { index, error } => JsQeError::new(
            &format!("command {index}: {}: {error}", error.rule()),
            error.rule(),
            error.code(),
            u32::try_from(*index).ok(),
        )
        .into(),
    }
}

/// A JavaScript `TypeError`: an argument of the wrong type.
pub(crate) fn type_error(message: &str) -> JsValue {
    js_sys::TypeError::new(message).into()
}

/// A JavaScript `RangeError`: an argument of the right type outside what it may be.
pub(crate) fn range_error(message: &str) -> JsValue {
    js_sys::RangeError::new(message).into()
}

// ------------------------------------------------------------------------------------------------
// Panics

thread_local! {
    /// The message of the last panic, kept by the hook for [`take_panic`].
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs the panic hook when the module is instantiated: it keeps the panic's message for
/// [`take_panic`] (and logs it to the console), so that the package's entry module can turn the
/// trap that follows into a `QePanic` error naming it. A panic is a bug in qe: the rules reject
/// bad input with errors, never with a panic.
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        let message = info.to_string();
        #[cfg(target_arch = "wasm32")]
        web_log(&format!("qe: {message}"));
        LAST_PANIC.with(|p| *p.borrow_mut() = Some(message));
    }));
}

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen]
extern "C" {
    /// `console.log` (not `console.error`: the `QePanic` error thrown after it is the report).
    #[wasm_bindgen(js_namespace = console, js_name = log)]
    fn web_log(message: &str);
}

/// The message of the last panic, once (then `undefined`): read by the entry module after a trap.
#[doc(hidden)]
#[wasm_bindgen(js_name = "__takePanic")]
pub fn take_panic() -> Option<String> {
    LAST_PANIC.with(|p| p.borrow_mut().take())
}

/// Panics, for the package's test of the panic boundary (a panic must become a `QePanic` error and
/// leave the instance usable). Not part of the API.
#[doc(hidden)]
#[wasm_bindgen(js_name = "__panicForTests")]
pub fn panic_for_tests() {
    panic!("the test of the panic boundary asked for this panic");
}

// ------------------------------------------------------------------------------------------------
// Values out

/// `value` as JavaScript data, the same shapes as its JSON form (objects, arrays, strings,
/// `null`), every 64-bit or wider integer a `BigInt` (so bids, prices and totals are exact).
pub(crate) fn to_js<T: serde::Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    let s = serde_wasm_bindgen::Serializer::json_compatible()
        .serialize_large_number_types_as_bigints(true);
    value
        .serialize(&s)
        .map_err(|e| type_error(&format!("qe could not convert a value for JavaScript: {e}")))
}

/// What a seat may do now ([`qe_core::Legal`]) with its masks as lists, as the Python package's
/// `qe.Legal` has them: piles by the core's names, peeks as turn numbers.
#[derive(serde::Serialize)]
struct LegalLists {
    bid: Option<qe_core::BidRange>,
    take: Vec<&'static str>,
    discard: Vec<&'static str>,
    peek: Vec<u8>,
}

impl From<qe_core::Legal> for LegalLists {
    fn from(l: qe_core::Legal) -> LegalLists {
        LegalLists {
            bid: l.bid,
            take: l.take.iter().map(AssetKind::name).collect(),
            discard: l.discard.iter().map(AssetKind::name).collect(),
            peek: (0..16u8).filter(|t| l.peek >> t & 1 == 1).collect(),
        }
    }
}

// ------------------------------------------------------------------------------------------------
// Values in

/// An integer argument named `name`: a `BigInt`, or a `number` that is a safe integer. Anything
/// else is a `TypeError` (not a number) or a `RangeError` (a fraction, or past the safe range).
fn integer(value: &JsValue, name: &str) -> Result<i128, JsValue> {
    if value.is_bigint() {
        let text = json::bigint_text(value)?;
        return text.parse::<i128>().map_err(|_| {
            range_error(&format!(
                "{name} must be an integer that fits 128 bits, got {}n",
                qe_core::shown(&text)
            ))
        });
    }
    match value.as_f64() {
        Some(n) if json::is_safe_integer(n) => Ok(n as i128),
        Some(n) => Err(range_error(&json::unsafe_number_message(name, n))),
        None => Err(type_error(&format!(
            "{name} must be a BigInt or a safe integer number, got {}",
            json::describe(value)
        ))),
    }
}

/// A `u64` argument `name` (a seed): an [`integer`] from 0 to 2^64−1, else a `RangeError`.
fn u64_arg(value: &JsValue, name: &str) -> Result<u64, JsValue> {
    let n = integer(value, name)?;
    u64::try_from(n)
        .map_err(|_| range_error(&format!("{name} must be from 0 to {}, got {n}", u64::MAX)))
}

/// The seat `value` of `m`'s game: an [`integer`]; one the game lacks is the core's
/// `SeatOutOfRange` (R-AUC-12), as for a command naming it; past 64 bits, a `RangeError`.
fn seat_arg(m: &Match, value: &JsValue) -> Result<Seat, JsValue> {
    let players = m.game().players();
    let n = integer(value, "seat")?;
    let seat = i64::try_from(n).map_err(|_| {
        range_error(&format!(
            "seat must be from 0 to {}, got {n}",
            players.saturating_sub(1)
        ))
    })?;
    match u8::try_from(seat) {
        Ok(s) if s < players => Ok(Seat(s)),
        _ => Err(command_error(&CommandError::SeatOutOfRange { seat })),
    }
}

/// A random seed for a game or bot made without one (`Math.random`, twice).
fn random_seed() -> u64 {
    let word = || (js_sys::Math::random() * 4_294_967_296.0) as u64;
    word() << 32 | word()
}

/// The options of `new Game(options)`: `{ players = 4, expansions = [], seed }`.
fn game_options(options: &JsValue) -> Result<(Rules, Option<u64>), JsValue> {
    const KNOWN: [&str; 3] = ["players", "expansions", "seed"];
    let mut players: i128 = 4;
    let mut expansions = Expansions::NONE;
    let mut seed = None;
    if !options.is_undefined() && !options.is_null() {
        if !options.is_object() || js_sys::Array::is_array(options) {
            return Err(type_error(&format!(
                "new Game(options): options must be an object such as {{ players: 4 }}, got {}",
                json::describe(options)
            )));
        }
        for key in js_sys::Object::keys(options.unchecked_ref::<js_sys::Object>()).iter() {
            let key = key.as_string().unwrap_or_default();
            let value = js_sys::Reflect::get(options, &JsValue::from_str(&key))?;
            if value.is_undefined() {
                continue;
            }
            match key.as_str() {
                "players" => players = integer(&value, "players")?,
                "seed" => seed = Some(u64_arg(&value, "seed")?),
                "expansions" => expansions = expansions_arg(&value)?,
                other => {
                    return Err(type_error(&format!(
                        "new Game(options): unknown option \"{}\" (known: {})",
                        qe_core::shown(other),
                        KNOWN.join(", ")
                    )))
                }
            }
        }
    }
    let players =
        u8::try_from(players).map_err(|_| setup_error(&SetupError::Players { players }))?;
    let rules = Rules::with_expansions(players, expansions).map_err(|e| setup_error(&e))?;
    Ok((rules, seed))
}

/// The `expansions` option: an array of the names records use (`["commodities"]`).
fn expansions_arg(value: &JsValue) -> Result<Expansions, JsValue> {
    if !js_sys::Array::is_array(value) {
        return Err(type_error(&format!(
            "expansions must be an array of names such as [\"commodities\"], got {}",
            json::describe(value)
        )));
    }
    let mut names = Vec::new();
    for v in js_sys::Array::from(value).iter() {
        names.push(v.as_string().ok_or_else(|| {
            type_error(&format!(
                "expansions must hold names (strings), got {}",
                json::describe(&v)
            ))
        })?);
    }
    Expansions::from_names(names.iter().map(String::as_str))
        .map_err(|e| range_error(&e.to_string()))
}

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** Options of `new Game`. */
export interface GameOptions {
  /** 3, 4 or 5 (default 4). */
  players?: number | bigint;
  /** Expansion names (`expansionNames()`), such as `["commodities"]`. */
  expansions?: string[];
  /** The set-up seed, 0 to 2^64 - 1 (default: random). */
  seed?: number | bigint;
}
/** A command in record form (spec/RECORD.md): a seat and exactly one action. */
export type Command =
  | { seat: number | bigint; bid: bigint | number }
  | { seat: number | bigint; take_asset: string }
  | { seat: number | bigint; discard_asset: string }
  | { seat: number | bigint; peek: number | bigint };
/** The bids a seat may make now (R-AUC-2...4). */
export interface BidRange { min: bigint; max: bigint; forbidden: bigint | null }
/** What a seat may do now. */
export interface Legal { bid: BidRange | null; take: string[]; discard: string[]; peek: number[] }
/** What a seat can prove about one seat's total spent. */
export interface SpendBounds { lower: bigint; upper: bigint; known_prices: number; won: number }
/** One seat's final scoring (spec/RECORD.md "Outcome"). */
export interface SeatOutcome {
  seat: number; nation: string; industry: string; spent: bigint; eliminated: boolean;
  winner: boolean; companies: number; zero_bids: number; nationalization: number;
  monopolization: number; diversification: number; commodities: number; subtotal: number;
  least_spent_bonus: number; total: number; [field: string]: unknown;
}
/** The outcome of a finished game. */
export interface Outcome { seats: SeatOutcome[] }
/** A view (qe_core::MatchView's serde form): the table as the viewer sees it, `bid_history`. */
export interface View { seat: number | null; players: number; expansions: string[]; phase: string; bid_history: unknown[]; [field: string]: unknown }
/** An event (qe_core::Event's serde form), as the viewer sees it. */
export type GameEvent = Record<string, unknown>;
"#;

// ------------------------------------------------------------------------------------------------
// Game

/// One game of QE with its history (a `qe_core::Match`).
#[wasm_bindgen]
pub struct Game {
    m: Match,
}

#[wasm_bindgen]
impl Game {
    /// `new Game({ players = 4, expansions = [], seed })`: a new seeded game (a random seed when
    /// none is given). `players` is 3, 4 or 5 (else a `QeError`, R-SET-1); `expansions` lists
    /// expansion names (`"commodities"`); `seed` is a `BigInt` or safe integer from 0 to 2^64−1.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "GameOptions | undefined")] options: &JsValue,
    ) -> Result<Game, JsValue> {
        let (rules, seed) = game_options(options)?;
        Ok(Game {
            m: Match::seeded(rules, seed.unwrap_or_else(random_seed)),
        })
    }

    /// The game of a `qe-record/1` record (JSON text, or an object of that shape), replayed. A bad
    /// record is a `QeError` (rule `RECORD` or the rule it breaks); an illegal command a `QeError`
    /// with `index`, the command's 0-based position.
    #[wasm_bindgen(js_name = fromRecord)]
    pub fn from_record(
        #[wasm_bindgen(unchecked_param_type = "string | object")] record: &JsValue,
    ) -> Result<Game, JsValue> {
        let text = json::text_of(record, "record", qe_core::MAX_RECORD_BYTES)?;
        let rec = Record::from_json(&text).map_err(|e| setup_error(&e))?;
        let m = rec.replay().map_err(|e| replay_error(&e))?;
        Ok(Game { m })
    }

    /// The number of seats (3 to 5).
    #[wasm_bindgen(getter)]
    pub fn players(&self) -> u8 {
        self.m.game().players()
    }

    /// The expansions in play, by name (the names records use).
    #[wasm_bindgen(getter)]
    pub fn expansions(&self) -> Vec<String> {
        let rules = self.m.game().rules();
        rules.expansions().names().map(str::to_owned).collect()
    }

    /// The set-up seed (a `BigInt`); `undefined` for a record without one.
    #[wasm_bindgen(getter)]
    pub fn seed(&self) -> Option<u64> {
        self.m.seed()
    }

    /// The current turn (0-based).
    #[wasm_bindgen(getter)]
    pub fn turn(&self) -> u8 {
        self.m.game().turn()
    }

    /// The number of turns of the game (R-TRN-1).
    #[wasm_bindgen(getter)]
    pub fn turns(&self) -> u8 {
        self.m.game().rules().turns()
    }

    /// The auctioneer of the current turn (R-TRN-2); `undefined` when it has none (R-TRN-3).
    #[wasm_bindgen(getter)]
    pub fn auctioneer(&self) -> Option<u8> {
        self.m.game().auctioneer().map(|s| s.0)
    }

    /// The phase name: `opening_bid`, `bidding`, `rebid`, `asset_rebid`, `take_asset`,
    /// `discard_asset` or `game_over` (`qe_core::Phase::NAMES`).
    #[wasm_bindgen(getter)]
    pub fn phase(&self) -> String {
        self.m.game().phase().name().to_owned()
    }

    /// The seats that must act now, lowest first (an array of numbers).
    #[wasm_bindgen(js_name = toAct, unchecked_return_type = "number[]")]
    pub fn to_act(&self) -> Vec<JsValue> {
        let seats = self.m.game().to_act();
        seats.iter().map(|s| JsValue::from(s.0)).collect()
    }

    /// What `seat` may do now: `{ bid: { min, max, forbidden } | null, take: [pile...],
    /// discard: [pile...], peek: [turn...] }` (bid amounts are `BigInt`s).
    #[wasm_bindgen(unchecked_return_type = "Legal")]
    pub fn legal(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number | bigint")] seat: &JsValue,
    ) -> Result<JsValue, JsValue> {
        let s = seat_arg(&self.m, seat)?;
        to_js(&LegalLists::from(self.m.game().legal(s)))
    }

    /// Applies a command in record form (`{ seat: 0, bid: 10n }`, `{ seat: 2, take_asset: "gold" }`,
    /// `{ seat: 0, discard_asset: "oil" }`, `{ seat: 3, peek: 4 }`), or its JSON text, and returns
    /// its events, unredacted (use `events(seat)` for what a seat may see). An illegal or
    /// malformed command is a `QeError` naming the rule, and changes nothing (R-AUC-12).
    #[wasm_bindgen(unchecked_return_type = "GameEvent[]")]
    pub fn apply(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Command | string")] command: &JsValue,
    ) -> Result<JsValue, JsValue> {
        let text = json::text_of(command, "command", qe_core::MAX_COMMAND_BYTES)?;
        let c = Command::from_json(&text).map_err(|e| command_error(&e))?;
        let events = self.m.apply(c).map_err(|e| command_error(&e))?;
        to_js(events.as_slice())
    }

    /// Everything `seat` may know (R-VIS): its view of the table and its bid history.
    #[wasm_bindgen(unchecked_return_type = "View")]
    pub fn view(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number | bigint")] seat: &JsValue,
    ) -> Result<JsValue, JsValue> {
        let s = seat_arg(&self.m, seat)?;
        to_js(&self.m.view(Some(s)))
    }

    /// The spectator's view: public information only, everything once the game is over (R-VIS-7).
    #[wasm_bindgen(js_name = publicView, unchecked_return_type = "View")]
    pub fn public_view(&self) -> Result<JsValue, JsValue> {
        to_js(&self.m.view(None))
    }

    /// The event stream as `seat` may see it; without a seat, the spectator's (public) stream.
    #[wasm_bindgen(unchecked_return_type = "GameEvent[]")]
    pub fn events(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number | bigint | undefined")] seat: &JsValue,
    ) -> Result<JsValue, JsValue> {
        if seat.is_undefined() || seat.is_null() {
            let events: Vec<_> = self.m.public_events().collect();
            return to_js(&events);
        }
        let s = seat_arg(&self.m, seat)?;
        let events: Vec<_> = self.m.events_for(s).collect();
        to_js(&events)
    }

    /// What `seat` can prove about every seat's total spent (the deduction aid): one
    /// `{ lower, upper, known_prices, won }` per seat, `lower` and `upper` `BigInt`s.
    #[wasm_bindgen(js_name = spendBounds, unchecked_return_type = "SpendBounds[]")]
    pub fn spend_bounds(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number | bigint")] seat: &JsValue,
    ) -> Result<JsValue, JsValue> {
        let s = seat_arg(&self.m, seat)?;
        let d = self.m.deduce(s);
        to_js(d.seats.in_play(self.m.game().players()))
    }

    /// Whether the game is over (R-TRN-4).
    #[wasm_bindgen(js_name = isOver)]
    pub fn is_over(&self) -> bool {
        self.m.game().is_over()
    }

    /// The outcome once the game is over (`{ seats: [...] }`, RECORD.md "Outcome"; `spent` and the
    /// other money as `BigInt`s), else `null`.
    #[wasm_bindgen(unchecked_return_type = "Outcome | null")]
    pub fn outcome(&self) -> Result<JsValue, JsValue> {
        match self.m.game().outcome() {
            Some(o) => to_js(&o),
            None => Ok(JsValue::NULL),
        }
    }

    /// The `qe-record/1` JSON text of the game so far.
    pub fn record(&self) -> Option<String> {
        self.m.record().map(|r| r.to_json())
    }

    /// An independent copy of the game.
    #[wasm_bindgen(js_name = clone)]
    pub fn copy(&self) -> Game {
        Game { m: self.m.clone() }
    }
}

// ------------------------------------------------------------------------------------------------
// Bot

/// A bot of `qe_core::bots` by name: it decides from what its seat may know (its view and, for
/// the search bot, its bid history).
#[wasm_bindgen]
pub struct Bot {
    bot: NamedBot,
}

#[wasm_bindgen]
impl Bot {
    /// `new Bot(name, seed = 0)`: the bot of this name (`botNames()`: `random`, `miser`, `value`,
    /// `search`, `search:easy`, `search:medium`, `search:hard`, `search:mixed`); an unknown name is a `RangeError`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "string")] name: &JsValue,
        #[wasm_bindgen(unchecked_param_type = "number | bigint | undefined")] seed: &JsValue,
    ) -> Result<Bot, JsValue> {
        let name = name.as_string().ok_or_else(|| {
            type_error(&format!(
                "new Bot(name, seed): name must be a string, got {}",
                json::describe(name)
            ))
        })?;
        let seed = if seed.is_undefined() {
            0
        } else {
            u64_arg(seed, "seed")?
        };
        let bot = NamedBot::new(&name, seed).ok_or_else(|| {
            range_error(&format!(
                "unknown bot \"{}\": expected one of {}",
                qe_core::shown(&name),
                NAMES.join(", ")
            ))
        })?;
        Ok(Bot { bot })
    }

    /// The name it was built from.
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> String {
        self.bot.name().to_owned()
    }

    /// The seed it was built with (a `BigInt`).
    #[wasm_bindgen(getter)]
    pub fn seed(&self) -> u64 {
        self.bot.seed()
    }

    /// Its command for `seat` of `game` now, in record form (`{ seat: 1, bid: 7n }`), or `null`
    /// when the seat has nothing to do. The game is not changed: pass the command to
    /// `game.apply`.
    #[wasm_bindgen(unchecked_return_type = "Command | null")]
    pub fn decide(
        &mut self,
        game: &Game,
        #[wasm_bindgen(unchecked_param_type = "number | bigint")] seat: &JsValue,
    ) -> Result<JsValue, JsValue> {
        let s = seat_arg(&game.m, seat)?;
        match self.bot.decide(&game.m, s, true) {
            Some(c) => to_js(&c),
            None => Ok(JsValue::NULL),
        }
    }
}

// ------------------------------------------------------------------------------------------------
// Names

/// The bot names `new Bot` documents (`qe_core::bots::NAMES`).
#[wasm_bindgen(js_name = botNames)]
pub fn bot_names() -> Vec<String> {
    NAMES.iter().map(|&n| n.to_owned()).collect()
}

/// The expansion names (`qe_core::Expansion::ALL`), as `new Game({ expansions })` and records
/// take them.
#[wasm_bindgen(js_name = expansionNames)]
pub fn expansion_names() -> Vec<String> {
    Expansion::ALL.iter().map(|e| e.name().to_owned()).collect()
}

/// The asset pile names (`qe_core::AssetKind::ALL`), as commands name them.
#[wasm_bindgen(js_name = pileNames)]
pub fn pile_names() -> Vec<String> {
    AssetKind::ALL.iter().map(|k| k.name().to_owned()).collect()
}

/// The company tile names in manifest order (`qe_core::TileId::ALL`): bit `i` of a view's `tiles`
/// mask (the tiles a seat holds) is the `i`-th.
#[wasm_bindgen(js_name = tileNames)]
pub fn tile_names() -> Vec<String> {
    TileId::ALL.iter().map(ToString::to_string).collect()
}

/// Every error code of the rules (`qe_core::ERROR_CODES`): `{ code, name, meaning }`.
#[wasm_bindgen(
    js_name = errorCodes,
    unchecked_return_type = "{ code: number; name: string; meaning: string }[]"
)]
pub fn error_codes() -> Result<JsValue, JsValue> {
    #[derive(serde::Serialize)]
    struct Entry {
        code: u32,
        name: &'static str,
        meaning: &'static str,
    }
    let codes: Vec<Entry> = qe_core::ERROR_CODES
        .iter()
        .map(|c| Entry {
            code: c.code,
            name: c.name,
            meaning: c.meaning,
        })
        .collect();
    to_js(&codes)
}

/// The version of the package (the workspace's version).
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}
