//! Views, events, outcomes, legal moves and spend bounds as the `qe` package's own frozen
//! dataclasses (`qe.View`, `qe.Event`, `qe.Outcome`, `qe.Legal`, `qe.SpendBounds`...), built here
//! from qe-core's values in one pass: no intermediate dicts for the facade to rebuild.
//!
//! Each object is made as `object.__new__(cls)` and given a fresh `__dict__` holding exactly its
//! fields, in field order, as the dataclass's `__init__` would leave it (without running it: a view
//! or an event stream is hundreds of objects). Field names are interned once per call site, the
//! names of tiles, piles, nations, industries and phases once per process, and the classes are
//! looked up in `qe` on first use. The values are those of the record form (`RECORD.md`, the
//! serde form of qe-core) with the facade's changes: a view's seats, bids and auctions cut to the
//! game, tile and pile masks as lists of names, a seen bid's stage split into `stage` and `tie`.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyString, PyType};
use pyo3::{ffi, intern};
use qe_core::{
    AssetKind, AssetView, AuctionView, BidRange, BidStage, Chance, Event, Industry, Legal,
    MatchView, Nation, Outcome, Phase, PileSet, SeatInfo, SeatSet, SeenBid, SpendBounds, TileId,
};

use crate::lists::{int_list, seat_list};

/// A new dict of `"key" => value` pairs in this order, each key interned once per call site.
macro_rules! fields {
    ($py:expr; $($key:literal => $value:expr),* $(,)?) => {{
        let fields = PyDict::new($py);
        $(fields.set_item(intern!($py, $key), $value)?;)*
        fields
    }};
}

/// The dataclasses of the `qe` package that this module makes instances of.
struct Classes {
    legal: Py<PyType>,
    view: Py<PyType>,
    seat_info: Py<PyType>,
    auction: Py<PyType>,
    asset_info: Py<PyType>,
    seen_bid: Py<PyType>,
    event: Py<PyType>,
    spend_bounds: Py<PyType>,
    outcome: Py<PyType>,
    seat_outcome: Py<PyType>,
}

/// The classes, looked up in `qe` once (the package has imported this module by the time a game
/// hands out a view).
fn classes(py: Python<'_>) -> PyResult<&'static Classes> {
    static CLASSES: PyOnceLock<Classes> = PyOnceLock::new();
    CLASSES.get_or_try_init(py, || {
        let qe = py.import("qe")?;
        let class = |name: &str| -> PyResult<Py<PyType>> {
            Ok(qe.getattr(name)?.cast_into::<PyType>()?.unbind())
        };
        Ok(Classes {
            legal: class("Legal")?,
            view: class("View")?,
            seat_info: class("SeatInfo")?,
            auction: class("Auction")?,
            asset_info: class("AssetInfo")?,
            seen_bid: class("SeenBid")?,
            event: class("Event")?,
            spend_bounds: class("SpendBounds")?,
            outcome: class("Outcome")?,
            seat_outcome: class("SeatOutcome")?,
        })
    })
}

/// An instance of the dataclass `cls` whose `__dict__` is `fields`: `object.__new__(cls)`, then
/// the dict set as `object.__setattr__(obj, "__dict__", fields)` sets it (past a frozen
/// dataclass's own `__setattr__`).
fn instance<'py>(cls: &Py<PyType>, fields: Bound<'py, PyDict>) -> PyResult<Bound<'py, PyAny>> {
    let py = fields.py();
    // SAFETY: `cls` is a type object; `PyType_GenericNew` allocates an instance of it (as
    // `object.__new__` does), a new reference or NULL with an error set. `PyObject_GenericSetDict`
    // takes its own reference to `fields`. Under the GIL.
    unsafe {
        let obj = ffi::PyType_GenericNew(
            cls.as_ptr().cast::<ffi::PyTypeObject>(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        );
        let obj = Bound::from_owned_ptr_or_err(py, obj)?;
        if ffi::PyObject_GenericSetDict(obj.as_ptr(), fields.as_ptr(), std::ptr::null_mut()) < 0 {
            return Err(PyErr::fetch(py));
        }
        Ok(obj)
    }
}

/// A Python list of `items`, each made by `make` (the first error stops it).
fn list_of<'py, T>(
    py: Python<'py>,
    items: impl IntoIterator<Item = T>,
    mut make: impl FnMut(T) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    let items = items
        .into_iter()
        .map(&mut make)
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, items)
}

/// Functions that give the name of a value (`fn tile(py, t)`) as a Python string, one interned
/// string per name, made on first use from every value (`from ALL`) and the name of one.
macro_rules! names {
    ($($(#[$doc:meta])* $vis:vis fn $f:ident($t:ty) from $all:expr, $name:expr;)*) => {$(
        $(#[$doc])*
        $vis fn $f(py: Python<'_>, value: $t) -> Bound<'_, PyString> {
            static NAMES: PyOnceLock<Vec<Py<PyString>>> = PyOnceLock::new();
            let names = NAMES.get_or_init(py, || {
                let name = $name;
                $all.iter().map(|v| PyString::intern(py, &name(*v)).unbind()).collect()
            });
            names[value.index()].bind(py).clone()
        }
    )*};
}

names! {
    /// The name of the phase `phase` (`"bidding"`...).
    pub(crate) fn phase_name(Phase) from Phase::NAMES, str::to_owned;
    /// The name of a tile (`"US-AGR"`).
    fn tile(TileId) from TileId::ALL, |t: TileId| t.to_string();
    /// The name of a pile (`"gold"`, `"oil"`, `"crypto"`).
    fn pile(AssetKind) from AssetKind::ALL, |k: AssetKind| k.name().to_owned();
    /// The name of a nation (`"US"`).
    fn nation(Nation) from Nation::ALL, |n: Nation| n.name().to_owned();
    /// The name of an industry (`"AGR"`).
    fn industry(Industry) from Industry::ALL, |i: Industry| i.name().to_owned();
}

/// The three sets of tied seats (one per tie in a row) as three lists.
fn ties(py: Python<'_>, ties: [SeatSet; 3]) -> PyResult<Bound<'_, PyList>> {
    list_of(py, ties, |set| Ok(seat_list(py, set)?.into_any()))
}

/// The piles of a set as the list of their names.
fn piles(py: Python<'_>, set: PileSet) -> PyResult<Bound<'_, PyList>> {
    list_of(py, set.iter(), |k| Ok(pile(py, k).into_any()))
}

/// The value of `value`'s serde form built by Python's `json.loads` from its JSON text: for the
/// kinds of values a later qe-core may add (its enums are `non_exhaustive`), so that they still
/// come in their record form.
fn from_json<'py>(py: Python<'py>, value: &impl serde::Serialize) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(value)
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
    py.import("json")?.getattr("loads")?.call1((text,))
}

/// `qe.Legal`: what one seat may do now. `bid` is the dict `{"min", "max", "forbidden"}`, `take`
/// and `discard` the names of the piles, `peek` the turns.
pub(crate) fn legal<'py>(py: Python<'py>, l: &Legal) -> PyResult<Bound<'py, PyAny>> {
    let bid = l.bid.map(|r| bid_range(py, r)).transpose()?;
    let peek: Vec<u8> = (0..16u8).filter(|&t| (l.peek >> t) & 1 == 1).collect();
    let fields = fields!(py;
        "bid" => bid,
        "take" => piles(py, l.take)?,
        "discard" => piles(py, l.discard)?,
        "peek" => int_list(py, &peek)?,
    );
    instance(&classes(py)?.legal, fields)
}

/// A bid range as the dict `{"min", "max", "forbidden"}`.
fn bid_range(py: Python<'_>, r: BidRange) -> PyResult<Bound<'_, PyDict>> {
    Ok(fields!(py; "min" => r.min, "max" => r.max, "forbidden" => r.forbidden))
}

/// The phase as its record form: `{"phase": name}` and the phase's own fields.
fn phase(py: Python<'_>, p: Phase) -> PyResult<Bound<'_, PyAny>> {
    let d = fields!(py; "phase" => phase_name(py, p));
    match p {
        Phase::Chance { chance } => {
            let chance = match chance {
                Chance::Deal => intern!(py, "deal").clone().into_any(),
                Chance::Reveal => intern!(py, "reveal").clone().into_any(),
                Chance::Draw(k) => fields!(py; "draw" => pile(py, k)).into_any(),
                other => from_json(py, &other)?,
            };
            d.set_item(intern!(py, "chance"), chance)?;
        }
        Phase::OpeningBid { auctioneer } => d.set_item(intern!(py, "auctioneer"), auctioneer.0)?,
        Phase::Rebid { tie } | Phase::AssetRebid { tie } => d.set_item(intern!(py, "tie"), tie)?,
        Phase::TakeAsset { seat } | Phase::DiscardAsset { seat } => {
            d.set_item(intern!(py, "seat"), seat.0)?;
        }
        Phase::Bidding | Phase::GameOver => {}
        _ => return from_json(py, &p),
    }
    Ok(d.into_any())
}

/// `qe.View`: everything the viewer of `v` may know, with its bid history.
pub(crate) fn view<'py>(py: Python<'py>, v: &MatchView) -> PyResult<Bound<'py, PyAny>> {
    let c = classes(py)?;
    let t = &v.view;
    let infos = list_of(
        py,
        t.seats.in_play(t.players).iter().enumerate(),
        |(i, s)| seat_info(py, c, i, s),
    )?;
    let auction_list = list_of(py, &t.auctions[..usize::from(t.turns_started)], |a| {
        auction(py, c, a)
    })?;
    let history = list_of(py, &v.bid_history, |b| seen_bid(py, c, b))?;
    let fields = fields!(py;
        "seat" => t.seat.map(|s| s.0),
        "players" => t.players,
        "expansions" => PyList::new(py, t.expansions.names().collect::<Vec<_>>())?,
        "commodities" => t.expansions.contains(qe_core::Expansion::Commodities),
        "turns" => t.turns,
        "turn" => t.turn,
        "phase" => phase(py, t.phase)?,
        "to_act" => seat_list(py, t.to_act)?,
        "legal" => legal(py, &t.legal)?,
        "auctioneer" => t.auctioneer.map(|s| s.0),
        "tile" => t.tile.map(|x| tile(py, x)),
        "deck_remaining" => t.deck_remaining,
        "piles_remaining" => int_list(py, &t.piles_remaining)?,
        "has_bid" => seat_list(py, t.has_bid)?,
        "bids" => PyList::new(py, t.bids.in_play(t.players).iter().copied())?,
        "seats" => infos,
        "auctions" => auction_list,
        "set_aside" => t.set_aside.map(|i| industry(py, i)),
        "game_over" => t.game_over,
        "bid_history" => history,
    );
    instance(&c.view, fields)
}

/// `qe.SeatInfo`: what the viewer knows of seat `seat`.
fn seat_info<'py>(
    py: Python<'py>,
    c: &Classes,
    seat: usize,
    s: &SeatInfo,
) -> PyResult<Bound<'py, PyAny>> {
    let held = TileId::ALL
        .iter()
        .filter(|t| (s.tiles >> t.index()) & 1 == 1);
    let tiles = list_of(py, held, |&t| Ok(tile(py, t).into_any()))?;
    let fields = fields!(py;
        "seat" => seat,
        "nation" => s.nation.map(|x| nation(py, x)),
        "industry" => s.industry.map(|x| industry(py, x)),
        "tiles" => tiles,
        "zero_marks" => s.zero_marks,
        "assets" => int_list(py, &s.assets)?,
        "peeked" => s.peeked,
        "spent" => s.spent,
    );
    instance(&c.seat_info, fields)
}

/// `qe.Auction`: what the viewer knows of one auction.
fn auction<'py>(py: Python<'py>, c: &Classes, a: &AuctionView) -> PyResult<Bound<'py, PyAny>> {
    let fields = fields!(py;
        "turn" => a.turn,
        "tile" => a.tile.map(|x| tile(py, x)),
        "auctioneer" => a.auctioneer.map(|s| s.0),
        "opening" => a.opening,
        "awarded" => a.awarded,
        "winner" => a.winner.map(|s| s.0),
        "price" => a.price,
        "ties" => ties(py, a.ties)?,
        "third_tie" => a.third_tie,
        "zero_bids" => seat_list(py, a.zero_bids)?,
        "asset" => asset_info(py, c, &a.asset)?,
    );
    instance(&c.auction, fields)
}

/// `qe.AssetInfo`: what the viewer knows of the asset step of one auction.
fn asset_info<'py>(py: Python<'py>, c: &Classes, a: &AssetView) -> PyResult<Bound<'py, PyAny>> {
    let fields = fields!(py;
        "taken" => a.taken,
        "discarded" => a.discarded,
        "seat" => a.seat.map(|s| s.0),
        "kind" => a.kind.map(|k| pile(py, k)),
        "token" => a.token.map(|t| t.to_string()),
        "value" => a.value,
        "price" => a.price,
        "ties" => ties(py, a.ties)?,
        "third_tie" => a.third_tie,
    );
    instance(&c.asset_info, fields)
}

/// `qe.SeenBid`: one secret bid or rebid as the viewer sees it; the stage is split into its name
/// and the tie it answers (0 for a secret bid).
fn seen_bid<'py>(py: Python<'py>, c: &Classes, b: &SeenBid) -> PyResult<Bound<'py, PyAny>> {
    let (stage, tie): (Bound<'py, PyAny>, u8) = match b.stage {
        BidStage::Secret => (intern!(py, "secret").clone().into_any(), 0),
        BidStage::Rebid(tie) => (intern!(py, "rebid").clone().into_any(), tie),
        BidStage::AssetRebid(tie) => (intern!(py, "asset_rebid").clone().into_any(), tie),
        // A stage a later qe-core may add: its record form, as a stage of its own.
        other => (from_json(py, &other)?, 0),
    };
    let fields = fields!(py;
        "turn" => b.turn,
        "seat" => b.seat.0,
        "stage" => stage,
        "tie" => tie,
        "amount" => b.amount,
    );
    instance(&c.seen_bid, fields)
}

/// A bid's stage in its record form: `"secret"`, `{"rebid": tie}` or `{"asset_rebid": tie}`.
fn stage(py: Python<'_>, stage: BidStage) -> PyResult<Bound<'_, PyAny>> {
    Ok(match stage {
        BidStage::Secret => intern!(py, "secret").clone().into_any(),
        BidStage::Rebid(tie) => fields!(py; "rebid" => tie).into_any(),
        BidStage::AssetRebid(tie) => fields!(py; "asset_rebid" => tie).into_any(),
        other => from_json(py, &other)?,
    })
}

/// The list of `qe.Event`s of `events`.
pub(crate) fn events(
    py: Python<'_>,
    events: impl IntoIterator<Item = Event>,
) -> PyResult<Bound<'_, PyList>> {
    let c = classes(py)?;
    list_of(py, events, |e| event(py, c, &e))
}

/// `qe.Event`: its kind (`event`) and its other fields in record form (`data`).
fn event<'py>(py: Python<'py>, c: &Classes, e: &Event) -> PyResult<Bound<'py, PyAny>> {
    let (kind, data) = match *e {
        Event::Dealt { seat, industry: i } => (
            intern!(py, "dealt"),
            fields!(py; "seat" => seat.0, "industry" => i.map(|x| industry(py, x))),
        ),
        Event::TileRevealed {
            turn,
            tile: t,
            auctioneer,
        } => (
            intern!(py, "tile_revealed"),
            fields!(py;
                "turn" => turn,
                "tile" => tile(py, t),
                "auctioneer" => auctioneer.map(|s| s.0),
            ),
        ),
        Event::OpeningBid { turn, seat, amount } => (
            intern!(py, "opening_bid"),
            fields!(py; "turn" => turn, "seat" => seat.0, "amount" => amount),
        ),
        Event::Bid {
            turn,
            seat,
            stage: s,
            amount,
            seen_by,
        } => (
            intern!(py, "bid"),
            fields!(py;
                "turn" => turn,
                "seat" => seat.0,
                "stage" => stage(py, s)?,
                "amount" => amount,
                "seen_by" => seat_list(py, seen_by)?,
            ),
        ),
        Event::RebidRequired {
            turn,
            seats,
            tie,
            asset,
        } => (
            intern!(py, "rebid_required"),
            fields!(py;
                "turn" => turn,
                "seats" => seat_list(py, seats)?,
                "tie" => tie,
                "asset" => asset,
            ),
        ),
        Event::Awarded {
            turn,
            tile: t,
            winner,
            price,
            third_tie,
            seen_by,
            third_tie_seen_by,
        } => (
            intern!(py, "awarded"),
            fields!(py;
                "turn" => turn,
                "tile" => tile(py, t),
                "winner" => winner.map(|s| s.0),
                "price" => price,
                "third_tie" => third_tie,
                "seen_by" => seat_list(py, seen_by)?,
                "third_tie_seen_by" => seat_list(py, third_tie_seen_by)?,
            ),
        ),
        Event::ZeroBids {
            turn,
            seats,
            marked,
        } => (
            intern!(py, "zero_bids"),
            fields!(py;
                "turn" => turn,
                "seats" => seat_list(py, seats)?,
                "marked" => seat_list(py, marked)?,
            ),
        ),
        Event::AssetTaker {
            turn,
            seat,
            third_tie,
            third_tie_seen_by,
        } => (
            intern!(py, "asset_taker"),
            fields!(py;
                "turn" => turn,
                "seat" => seat.0,
                "third_tie" => third_tie,
                "third_tie_seen_by" => seat_list(py, third_tie_seen_by)?,
            ),
        ),
        Event::AssetTaken {
            turn,
            seat,
            kind,
            token,
            value,
            price,
            token_seen_by,
            price_seen_by,
        } => (
            intern!(py, "asset_taken"),
            fields!(py;
                "turn" => turn,
                "seat" => seat.0,
                "kind" => pile(py, kind),
                "token" => token.map(|t| t.to_string()),
                "value" => value,
                "price" => price,
                "token_seen_by" => seat_list(py, token_seen_by)?,
                "price_seen_by" => seat_list(py, price_seen_by)?,
            ),
        ),
        Event::NoTaker { turn } => (intern!(py, "no_taker"), fields!(py; "turn" => turn)),
        Event::AssetDiscarded { turn, seat, kind } => (
            intern!(py, "asset_discarded"),
            fields!(py; "turn" => turn, "seat" => seat.0, "kind" => pile(py, kind)),
        ),
        Event::Peeked { seat, turn, price } => (
            intern!(py, "peeked"),
            fields!(py; "seat" => seat.0, "turn" => turn, "price" => price),
        ),
        Event::GameOver => (intern!(py, "game_over"), PyDict::new(py)),
        _ => {
            // An event a later qe-core may add: its record form, less the kind.
            let data = from_json(py, e)?.cast_into::<PyDict>()?;
            let kind = data.as_any().get_item("event")?;
            data.del_item("event")?;
            return instance(&c.event, fields!(py; "event" => kind, "data" => data));
        }
    };
    instance(&c.event, fields!(py; "event" => kind, "data" => data))
}

/// `qe.Outcome`: every seat's result (`qe.SeatOutcome`).
pub(crate) fn outcome<'py>(py: Python<'py>, o: &Outcome) -> PyResult<Bound<'py, PyAny>> {
    let c = classes(py)?;
    let results = list_of(py, o.seats(), |s| {
        let fields = fields!(py;
            "seat" => s.seat,
            "nation" => s.nation.map(|x| nation(py, x)),
            "industry" => s.industry.map(|x| industry(py, x)),
            "spent" => s.spent,
            "eliminated" => s.eliminated,
            "winner" => s.winner,
            "companies" => s.companies,
            "zero_bids" => s.zero_bids,
            "nationalization" => s.nationalization,
            "monopolization" => s.monopolization,
            "diversification" => s.diversification,
            "commodities" => s.commodities,
            "subtotal" => s.subtotal,
            "least_spent_bonus" => s.least_spent_bonus,
            "total" => s.total,
        );
        instance(&c.seat_outcome, fields)
    })?;
    instance(&c.outcome, fields!(py; "seats" => results))
}

/// The list of `qe.SpendBounds` of `bounds`, one per seat in order.
pub(crate) fn spend_bounds<'py>(
    py: Python<'py>,
    bounds: &[SpendBounds],
) -> PyResult<Bound<'py, PyList>> {
    let c = classes(py)?;
    list_of(py, bounds.iter().enumerate(), |(seat, b)| {
        let fields = fields!(py;
            "seat" => seat,
            "lower" => b.lower,
            "upper" => b.upper,
            "known_prices" => b.known_prices,
            "won" => b.won,
        );
        instance(&c.spend_bounds, fields)
    })
}
