//! Whole games through the ABI against the same games through `qe-core`; event streams; records;
//! and every conformance case replayed through `qe_game_from_record`.
#![allow(unsafe_code, clippy::borrow_as_ptr, clippy::many_single_char_names)]

mod common;
#[path = "../../qe-core/tests/common/conformance.rs"]
mod conformance;

use std::ptr;

use common::*;
use qe_core::{AssetKind, Command, Match, Rules, Seat};
use qe_ffi::*;
use serde_json::Value;

/// A JSON view of the C ABI read back typed: the view and its `spend_bounds`.
fn typed_view(text: &str) -> (qe_core::SeatView, Vec<qe_core::SpendBounds>) {
    #[derive(serde::Deserialize)]
    struct Bounds {
        spend_bounds: Vec<qe_core::SpendBounds>,
    }
    let view = serde_json::from_str(text).unwrap();
    let bounds: Bounds = serde_json::from_str(text).unwrap();
    (view, bounds.spend_bounds)
}

fn core_command(c: &QeCommand) -> Command {
    let seat = Seat(c.seat);
    match c.kind {
        QE_COMMAND_BID => Command::Bid {
            seat,
            amount: c.amount,
        },
        QE_COMMAND_TAKE_ASSET => Command::TakeAsset {
            seat,
            kind: AssetKind::ALL[c.pile as usize],
        },
        QE_COMMAND_DISCARD_ASSET => Command::DiscardAsset {
            seat,
            kind: AssetKind::ALL[c.pile as usize],
        },
        QE_COMMAND_PEEK => Command::Peek { seat, turn: c.turn },
        _ => unreachable!(),
    }
}

#[derive(Clone, Debug)]
enum Read {
    Json(Value),
    Flat(QeEvent),
}

fn events_json(g: *mut QeGame, viewer: u8) -> Vec<Value> {
    let mut s = ptr::null_mut();
    assert_eq!(unsafe { qe_game_events_json(g, viewer, &mut s) }, QE_OK);
    serde_json::from_str::<Value>(&take(s))
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

fn events_flat(g: *mut QeGame, viewer: u8) -> Vec<QeEvent> {
    let mut out = Vec::new();
    let mut buf = [QeEvent::default(); 3]; // small, to exercise draining
    loop {
        let mut n = 0;
        let st = unsafe { qe_game_events(g, viewer, buf.as_mut_ptr(), buf.len(), &mut n) };
        assert_eq!(st, QE_OK);
        out.extend_from_slice(&buf[..n]);
        if n < buf.len() {
            return out;
        }
    }
}

/// Plays a whole game through the ABI (JSON for every third command, the flat struct otherwise,
/// peeks in 5-player games) and the same commands through `qe_core::Match`; checks every step.
fn play_both(players: u8, commodities: bool, seed: u64) {
    let g = new_game(players, commodities, seed);
    let rules = if commodities {
        Rules::commodities(players)
    } else {
        Rules::base(players)
    }
    .unwrap();
    let mut m = Match::seeded(rules, seed);
    let mut rng = Lcg(seed ^ 0x9e37);
    // Per viewer, every event read so far, in order, as JSON or as a flat struct.
    let mut read: Vec<Vec<Read>> = vec![Vec::new(); players as usize + 1];
    // Per viewer, how many events it had read when the game ended: those were redacted, the rest
    // are in full (R-VIS-7).
    let mut read_while_running: Vec<Option<usize>> = vec![None; players as usize + 1];
    let viewers: Vec<u8> = (0..players).chain([QE_SPECTATOR]).collect();
    let mut step = 0u32;
    loop {
        let s = state(g);
        let game = m.game();
        assert_eq!(s.to_act, game.to_act().bits());
        assert_eq!(s.turn, game.turn());
        assert_eq!(s.game_over, u8::from(game.is_over()));
        for seat in 0..players {
            let l = legal(g, seat);
            assert_eq!(l, QeLegal::from_core(game.legal(Seat(seat))), "seat {seat}");
            let mut r = QeBidRange::default();
            assert_eq!(unsafe { qe_game_bid_range(g, seat, &mut r) }, QE_OK);
            assert_eq!(r, l.bid);
        }
        for (k, &v) in viewers.iter().enumerate() {
            // The JSON views are compared every fifth step and at the end (JSON is slow in debug).
            if step % 5 == 0 || s.game_over == 1 {
                let (want, bounds) = match v {
                    QE_SPECTATOR => {
                        let view = game.public_view();
                        (view, view.deduce())
                    }
                    s => (game.view(Seat(s)), m.deduce(Seat(s))),
                };
                // Read back typed, so totals past 64 bits compare exactly.
                let (got, got_bounds) = typed_view(&view(g, v));
                assert!(got == want, "view of {v} differs from qe-core's");
                assert_eq!(got_bounds, bounds.seats.in_play(players));
            }
            if s.game_over == 1 {
                read_while_running[k].get_or_insert(read[k].len());
            }
            // Read events at irregular intervals, alternating JSON and flat.
            if (step + k as u32) % 3 == 0 {
                read[k].extend(events_json(g, v).into_iter().map(Read::Json));
            } else if (step + k as u32) % 3 == 1 {
                read[k].extend(events_flat(g, v).into_iter().map(Read::Flat));
            }
        }
        if s.game_over == 1 {
            break;
        }
        // One seat acts: pick among the seats to act; in 5-player games peek now and then.
        let seats: Vec<u8> = (0..players).filter(|i| s.to_act & (1 << i) != 0).collect();
        let seat = seats[(rng.next() as usize) % seats.len()];
        let mut command = policy(&legal(g, seat), seat, &mut rng).unwrap();
        if players == 5 && rng.next() % 5 == 0 {
            let peeker = (rng.next() % 5) as u8;
            let l = legal(g, peeker);
            if l.peek != 0 {
                command = QeCommand {
                    kind: QE_COMMAND_PEEK,
                    seat: peeker,
                    turn: l.peek.trailing_zeros() as u8,
                    ..QeCommand::default()
                };
            }
        }
        let st = if step % 3 == 0 {
            let json = match command.kind {
                QE_COMMAND_BID => {
                    format!(r#"{{"seat":{},"bid":{}}}"#, command.seat, command.amount)
                }
                QE_COMMAND_TAKE_ASSET => format!(
                    r#"{{"seat":{},"take_asset":"{}"}}"#,
                    command.seat,
                    AssetKind::ALL[command.pile as usize]
                ),
                QE_COMMAND_DISCARD_ASSET => format!(
                    r#"{{"seat":{},"discard_asset":"{}"}}"#,
                    command.seat,
                    AssetKind::ALL[command.pile as usize]
                ),
                _ => format!(r#"{{"seat":{},"peek":{}}}"#, command.seat, command.turn),
            };
            apply_json(g, &json)
        } else {
            unsafe { qe_game_apply(g, command) }
        };
        assert_eq!(st, QE_OK, "{}", last_message());
        m.apply(core_command(&command)).unwrap();
        step += 1;
    }
    // Drain, then compare every viewer's stream with qe-core's.
    for (k, &v) in viewers.iter().enumerate() {
        read[k].extend(events_json(g, v).into_iter().map(Read::Json));
        let seat = (v != QE_SPECTATOR).then_some(Seat(v));
        let running = read_while_running[k].expect("the game is over");
        let want: Vec<qe_core::Event> = m
            .events()
            .iter()
            .enumerate()
            .map(|(i, e)| {
                e.as_seen(qe_core::visibility::Viewer::new(
                    seat,
                    m.game().players(),
                    i >= running,
                ))
            })
            .collect();
        assert_eq!(read[k].len(), want.len(), "viewer {v}: every event once");
        let mut pending = 9;
        assert_eq!(unsafe { qe_game_events_pending(g, v, &mut pending) }, QE_OK);
        assert_eq!(pending, 0);
        // Each event, as JSON or as a flat struct, is qe-core's redacted copy, in order.
        for (got, want) in read[k].iter().zip(&want) {
            match got {
                Read::Json(j) => assert_eq!(j, &serde_json::to_value(want).unwrap()),
                Read::Flat(f) => assert_eq!(f, &QeEvent::from_core(want), "viewer {v}"),
            }
        }
        // Rewound after the end, the whole stream is in full (R-VIS-7).
        assert_eq!(unsafe { qe_game_events_rewind(g, v) }, QE_OK);
        let again = events_json(g, v);
        let full: Vec<Value> = m
            .events()
            .iter()
            .map(|e| serde_json::to_value(e).unwrap())
            .collect();
        assert_eq!(again, full, "viewer {v}: every event in full after the end");
    }
    // At the end every viewer's JSON view holds every bid and rebid in full (R-VIS-7).
    for &v in &viewers {
        let text = view(g, v);
        let history: Value = serde_json::from_str::<Value>(&text).unwrap()["bid_history"].clone();
        let bids = m
            .events()
            .iter()
            .filter(|e| matches!(e, qe_core::Event::Bid { .. }))
            .count();
        assert_eq!(history.as_array().map(Vec::len), Some(bids), "viewer {v}");
        assert!(history
            .as_array()
            .unwrap()
            .iter()
            .all(|b| !b["amount"].is_null()));
    }
    // The same outcome and record.
    let outcome = m.game().outcome().unwrap();
    let mut s = ptr::null_mut();
    assert_eq!(unsafe { qe_game_outcome_json(g, &mut s) }, QE_OK);
    let got: Value = serde_json::from_str(&take(s)).unwrap();
    assert_eq!(got, serde_json::to_value(outcome).unwrap());
    for seat in 0..players {
        let mut o = QeSeatOutcome::default();
        assert_eq!(unsafe { qe_game_outcome(g, seat, &mut o) }, QE_OK);
        let w = outcome.seat(Seat(seat));
        assert_eq!(o.total, w.total);
        assert_eq!(o.winner, u8::from(w.winner));
        assert_eq!(o.eliminated, u8::from(w.eliminated));
        assert_eq!(
            i128::from(o.spent.hi) << 64 | i128::from(o.spent.lo),
            w.spent
        );
    }
    let rec = record(g);
    assert_eq!(rec, m.record().unwrap().to_json());
    // Round trip through the record.
    let (st, idx, g2) = from_record(&rec);
    assert_eq!((st, idx), (QE_OK, usize::MAX), "{}", last_message());
    assert_eq!(record(g2), rec);
    assert_eq!(view(g2, 0), view(g, 0));
    free(g2);
    free(g);
}

/// Conversions from qe-core for comparisons (the crate's `From` impls are what the ABI uses).
trait FromCore<T> {
    fn from_core(t: T) -> Self;
}
impl FromCore<qe_core::Legal> for QeLegal {
    fn from_core(l: qe_core::Legal) -> Self {
        QeLegal {
            bid: match l.bid {
                None => QeBidRange::default(),
                Some(r) => QeBidRange {
                    min: r.min,
                    max: r.max,
                    forbidden: r.forbidden.unwrap_or(0),
                    can_bid: 1,
                    has_forbidden: u8::from(r.forbidden.is_some()),
                },
            },
            peek: l.peek,
            take: l.take.0,
            discard: l.discard.0,
            must_act: u8::from(l.must_act()),
        }
    }
}
impl FromCore<&qe_core::Event> for QeEvent {
    fn from_core(e: &qe_core::Event) -> Self {
        // Round trip through the ABI's own mapping is what we test elsewhere; here check the
        // fields every loop relies on against the JSON of the event.
        let v = serde_json::to_value(e).unwrap();
        let mut out = flat_of_json(&v);
        out.kind = event_kind(v["event"].as_str().unwrap());
        out
    }
}

fn event_kind(name: &str) -> u32 {
    match name {
        "dealt" => QE_EVENT_DEALT,
        "tile_revealed" => QE_EVENT_TILE_REVEALED,
        "opening_bid" => QE_EVENT_OPENING_BID,
        "bid" => QE_EVENT_BID,
        "rebid_required" => QE_EVENT_REBID_REQUIRED,
        "awarded" => QE_EVENT_AWARDED,
        "zero_bids" => QE_EVENT_ZERO_BIDS,
        "asset_taker" => QE_EVENT_ASSET_TAKER,
        "asset_taken" => QE_EVENT_ASSET_TAKEN,
        "no_taker" => QE_EVENT_NO_TAKER,
        "asset_discarded" => QE_EVENT_ASSET_DISCARDED,
        "peeked" => QE_EVENT_PEEKED,
        "game_over" => QE_EVENT_GAME_OVER,
        other => panic!("unknown event {other}"),
    }
}

fn mask(v: &Value) -> u8 {
    v.as_array().map_or(0, |a| {
        a.iter().fold(0u8, |m, s| m | 1 << s.as_u64().unwrap())
    })
}

/// An independent mapping from an event's JSON to the flat struct.
fn flat_of_json(v: &Value) -> QeEvent {
    let u8f = |k: &str| {
        v.get(k)
            .and_then(Value::as_u64)
            .map_or(QE_NONE, |x| x as u8)
    };
    let kind = v["event"].as_str().unwrap();
    let mut e = QeEvent {
        turn: u8f("turn"),
        seat: match kind {
            "tile_revealed" => u8f("auctioneer"),
            "awarded" => u8f("winner"),
            _ => u8f("seat"),
        },
        ..QeEvent::default()
    };
    let name_index = |k: &str, all: &[&str]| {
        v.get(k)
            .and_then(Value::as_str)
            .and_then(|s| all.iter().position(|x| *x == s))
            .map_or(QE_NONE, |i| i as u8)
    };
    e.industry = name_index("industry", &["AGR", "HOU", "FIN", "MAN", "GOV"]);
    e.pile = name_index("kind", &["gold", "oil", "crypto"]);
    if let Some(t) = v.get("tile").and_then(Value::as_str) {
        e.tile = qe_core::TileId::ALL
            .iter()
            .position(|x| x.to_string() == t)
            .unwrap() as u8;
    }
    if let Some(t) = v.get("token").and_then(Value::as_str) {
        e.token = t.trim_start_matches(char::is_alphabetic).parse().unwrap();
    }
    e.value = u8f("value");
    let amount = v.get("amount").or_else(|| v.get("price"));
    if let Some(a) = amount.and_then(Value::as_u64) {
        e.amount = a;
        e.amount_known = 1;
    }
    match v.get("stage") {
        Some(Value::String(_)) => {}
        Some(Value::Object(o)) => {
            let (k, n) = o.iter().next().unwrap();
            e.stage = if k == "rebid" { 1 } else { 2 };
            e.tie = n.as_u64().unwrap() as u8;
        }
        _ => {}
    }
    if let Some(t) = v.get("tie").and_then(Value::as_u64) {
        e.tie = t as u8;
    }
    e.seats = v.get("seats").map_or(0, mask);
    e.marked = v.get("marked").map_or(0, mask);
    e.seen_by = v
        .get("seen_by")
        .or_else(|| v.get("token_seen_by"))
        .map_or(0, mask);
    e.price_seen_by = v.get("price_seen_by").map_or(0, mask);
    e.third_tie = match v.get("third_tie") {
        Some(Value::Bool(b)) => u8::from(*b),
        Some(Value::Null) => QE_NONE,
        _ => 0,
    };
    e.asset = u8::from(v.get("asset") == Some(&Value::Bool(true)));
    e
}

#[test]
fn whole_games_match_qe_core() {
    for players in 3..=5 {
        for commodities in [false, true] {
            for seed in 0..2 {
                play_both(players, commodities, seed * 7919 + u64::from(players));
            }
        }
    }
}

#[test]
fn clone_is_independent() {
    let g = new_game(4, true, 77);
    assert_eq!(unsafe { qe_game_apply(g, bid(0, 3)) }, QE_OK);
    let mut c = ptr::null_mut();
    assert_eq!(unsafe { qe_game_clone(g, &mut c) }, QE_OK);
    assert_eq!(record(c), record(g));
    assert_eq!(unsafe { qe_game_apply(c, bid(1, 4)) }, QE_OK);
    assert_ne!(record(c), record(g));
    free(c);
    assert_eq!(state(g).to_act, 0b1110);
    free(g);
}

#[test]
fn a_third_tie_is_qe_none_in_the_flat_auction_of_a_seat_that_may_not_see_it() {
    // Seats 1 and 2 tie three times; the auctioneer wins at 3 (R-AUC-7). It sees the third tie
    // (R-VIS-3); seat 3 sees the two rebids only (R-VIS-1).
    let g = new_game(4, false, 1);
    for (seat, amount) in [
        (0, 3),
        (1, 6),
        (2, 6),
        (3, 1),
        (1, 5),
        (2, 5),
        (1, 4),
        (2, 4),
    ] {
        assert_eq!(unsafe { qe_game_apply(g, bid(seat, amount)) }, QE_OK);
    }
    let auction = |viewer: u8| {
        let mut a = QeAuction::default();
        assert_eq!(unsafe { qe_game_auction(g, viewer, 0, &mut a) }, QE_OK);
        (a.third_tie, a.tie1, a.tie2, a.tie3)
    };
    assert_eq!(auction(0), (1, 0b110, 0b110, 0b110));
    assert_eq!(auction(3), (QE_NONE, 0b110, 0b110, 0));
    assert_eq!(auction(QE_SPECTATOR), (QE_NONE, 0b110, 0b110, 0));
    free(g);
}

/// What [`assert_flat_equals_json`] has seen, so a test can require that its cases came up.
#[derive(Default, Debug)]
struct Seen {
    /// Views compared.
    views: u32,
    /// Asset tokens held.
    assets: u32,
    /// Seats that have bid a hidden amount (`has_bid` without `bid_known`).
    hidden_bids: u32,
    /// Auctions whose opening bid is known and price is not.
    opening_only: u32,
    /// Auctions whose asset was taken, and whose token was discarded.
    taken: u32,
    discarded: u32,
    /// Spend bounds past 2^64.
    upper_past_64_bits: u32,
    /// States in each phase that names a seat: opening bid, take, discard.
    phase_seats: [u32; 3],
}

fn i128_of(v: QeI128) -> i128 {
    i128::from(v.hi) << 64 | i128::from(v.lo)
}

/// Every field of the flat structs (`QeState`, and for every viewer `QeSeatInfo`, `QeAuction`,
/// `QeSpendBounds`) against the viewer's JSON view, as `qe.h` defines each field.
fn assert_flat_equals_json(g: *mut QeGame, seen: &mut Seen) {
    let s = state(g);
    let players = s.players;
    let none_or = |x: Option<u8>| x.unwrap_or(QE_NONE);
    for viewer in (0..players).chain([QE_SPECTATOR]) {
        let (v, bounds) = typed_view(&view(g, viewer));
        seen.views += 1;
        // QeState: public, the same for every viewer.
        let (phase_seat, tie) = match v.phase {
            qe_core::Phase::OpeningBid { auctioneer } => (auctioneer.0, 0),
            qe_core::Phase::TakeAsset { seat } | qe_core::Phase::DiscardAsset { seat } => {
                (seat.0, 0)
            }
            qe_core::Phase::Rebid { tie } | qe_core::Phase::AssetRebid { tie } => (QE_NONE, tie),
            _ => (QE_NONE, 0),
        };
        assert_eq!(s.phase as usize, v.phase.index());
        assert_eq!((s.phase_seat, s.tie), (phase_seat, tie), "{:?}", v.phase);
        assert_eq!((s.players, s.turn, s.turns), (v.players, v.turn, v.turns));
        assert_eq!(
            s.commodities,
            u8::from(v.expansions.contains(qe_core::Expansion::Commodities))
        );
        assert_eq!(s.to_act, v.to_act.bits());
        assert_eq!(s.game_over, u8::from(v.phase == qe_core::Phase::GameOver));
        assert_eq!(s.auctioneer, none_or(v.auctioneer.map(|a| a.0)));
        assert_eq!(s.tile, none_or(v.tile.map(|t| t.index() as u8)));
        assert_eq!(s.deck_remaining, v.deck_remaining);
        let piles = [s.gold_remaining, s.oil_remaining, s.crypto_remaining];
        assert_eq!(piles, v.piles_remaining);
        if viewer == QE_SPECTATOR {
            for (k, code) in [
                QE_PHASE_OPENING_BID,
                QE_PHASE_TAKE_ASSET,
                QE_PHASE_DISCARD_ASSET,
            ]
            .into_iter()
            .enumerate()
            {
                seen.phase_seats[k] += u32::from(s.phase == code);
            }
        }
        for seat in 0..players {
            let mut si = QeSeatInfo::default();
            assert_eq!(
                unsafe { qe_game_seat_info(g, viewer, seat, &mut si) },
                QE_OK
            );
            let j = &v.seats[Seat(seat)];
            let bid = v.bids[Seat(seat)];
            assert_eq!(si.seat, seat);
            assert_eq!(si.tiles, j.tiles);
            assert_eq!(si.spent_known, u8::from(j.spent.is_some()));
            assert_eq!(i128_of(si.spent), j.spent.unwrap_or(0));
            let clamped = j.spent.unwrap_or(0).clamp(i64::MIN.into(), i64::MAX.into());
            assert_eq!(i128::from(si.spent_i64), clamped);
            assert_eq!(
                (si.bid_known, si.bid),
                (u8::from(bid.is_some()), bid.unwrap_or(0))
            );
            let has_bid = v.has_bid.contains(Seat(seat));
            assert_eq!(
                si.has_bid,
                u8::from(has_bid),
                "seat {seat}: has_bid is public"
            );
            seen.hidden_bids += u32::from(has_bid && bid.is_none());
            assert_eq!(si.nation, none_or(j.nation.map(|n| n.index() as u8)));
            assert_eq!(si.industry, none_or(j.industry.map(|i| i.index() as u8)));
            assert_eq!([si.gold, si.oil, si.crypto], j.assets, "seat {seat}");
            seen.assets += j.assets.iter().map(|&n| u32::from(n)).sum::<u32>();
            assert_eq!(si.zero_marks, j.zero_marks);
            assert_eq!(si.peeked, none_or(j.peeked));
            // The deduction aid, which contains the seat's true total.
            let mut b = QeSpendBounds::default();
            assert_eq!(
                unsafe { qe_game_spend_bounds(g, viewer, seat, &mut b) },
                QE_OK
            );
            let jb = &bounds[seat as usize];
            assert_eq!((i128_of(b.lower), i128_of(b.upper)), (jb.lower, jb.upper));
            assert_eq!(
                (b.won, b.known_prices, b.seat),
                (jb.won, jb.known_prices, seat)
            );
            assert_eq!(b.exact, u8::from(jb.lower == jb.upper));
            seen.upper_past_64_bits += u32::from(jb.upper > i128::from(u64::MAX));
            if let Some(spent) = j.spent {
                assert_eq!((b.exact, jb.lower), (1, spent));
            }
        }
        for turn in 0..=s.turn.min(s.turns - 1) {
            let mut a = QeAuction::default();
            assert_eq!(unsafe { qe_game_auction(g, viewer, turn, &mut a) }, QE_OK);
            let Some(j) = v.auctions.get(turn as usize) else {
                assert_eq!(a.tile, QE_NONE, "turn {turn} has not started");
                continue;
            };
            assert_eq!(a.turn, turn);
            assert_eq!(a.tile, none_or(j.tile.map(|t| t.index() as u8)));
            assert_eq!(a.auctioneer, none_or(j.auctioneer.map(|s| s.0)));
            assert_eq!(a.winner, none_or(j.winner.map(|s| s.0)));
            assert_eq!(a.awarded, u8::from(j.awarded));
            let opening = (a.opening_known, a.opening);
            assert_eq!(
                opening,
                (u8::from(j.opening.is_some()), j.opening.unwrap_or(0))
            );
            let price = (a.price_known, a.price);
            assert_eq!(price, (u8::from(j.price.is_some()), j.price.unwrap_or(0)));
            seen.opening_only += u32::from(j.opening.is_some() && j.price.is_none());
            let third_tie = j.third_tie.map_or(QE_NONE, u8::from);
            assert_eq!(a.third_tie, third_tie);
            assert_eq!(a.zero_bids, j.zero_bids.bits());
            assert_eq!([a.tie1, a.tie2, a.tie3], j.ties.map(qe_core::SeatSet::bits));
            let asset = &j.asset;
            let state = match (asset.taken, asset.discarded) {
                (true, _) => 1,
                (false, true) => 2,
                (false, false) => 0,
            };
            assert_eq!(a.asset_state, state, "turn {turn}: 1 taken, 2 discarded");
            seen.taken += u32::from(asset.taken);
            seen.discarded += u32::from(asset.discarded);
            assert_eq!(a.asset_seat, none_or(asset.seat.map(|s| s.0)));
            assert_eq!(a.asset_pile, none_or(asset.kind.map(|k| k.index() as u8)));
            assert_eq!(
                a.asset_token,
                none_or(asset.token.map(qe_core::TokenId::number))
            );
            assert_eq!(a.asset_value, none_or(asset.value));
            let asset_price = (a.asset_price_known, a.asset_price);
            assert_eq!(
                asset_price,
                (u8::from(asset.price.is_some()), asset.price.unwrap_or(0))
            );
        }
    }
}

#[test]
fn flat_views_agree_with_json_views() {
    // Games played by the test policy, every viewer compared after every command.
    let mut seen = Seen::default();
    for (players, commodities, seed) in [(5, true, 3), (4, false, 2), (3, true, 7), (4, true, 9)] {
        let g = new_game(players, commodities, seed);
        let mut rng = Lcg(seed + 2);
        loop {
            assert_flat_equals_json(g, &mut seen);
            let s = state(g);
            if s.game_over == 1 {
                break;
            }
            let seat = s.to_act.trailing_zeros() as u8;
            let c = policy(&legal(g, seat), seat, &mut rng).unwrap();
            assert_eq!(unsafe { qe_game_apply(g, c) }, QE_OK, "{}", last_message());
        }
        free(g);
    }
    // Every prefix of conformance games in which a token is discarded (R-COM-7).
    for case in ["named/no-taker-discard", "named/asset-third-tie-no-taker"] {
        let path = format!("{}/../conformance/{case}.json", env!("CARGO_MANIFEST_DIR"));
        let mut record: Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let commands = record["commands"].as_array().unwrap().clone();
        for k in 0..=commands.len() {
            record["commands"] = Value::Array(commands[..k].to_vec());
            let (st, _, g) = from_record(&record.to_string());
            if st != QE_OK {
                break; // the case's own illegal last command, if any
            }
            assert_flat_equals_json(g, &mut seen);
            free(g);
        }
    }
    assert!(
        seen.assets > 0
            && seen.hidden_bids > 0
            && seen.opening_only > 0
            && seen.taken > 0
            && seen.discarded > 0
            && seen.upper_past_64_bits > 0
            && seen.phase_seats.iter().all(|&n| n > 0),
        "a case never came up, so its fields were not compared: {seen:?}"
    );
}

#[test]
fn conformance_cases_through_the_abi() {
    let cases = conformance::cases();
    assert!(cases.len() >= 200, "found {} cases", cases.len());
    let mut failures = Vec::new();
    let mut kinds = std::collections::BTreeMap::<String, usize>::new();
    for p in &cases {
        let text = std::fs::read_to_string(p).unwrap();
        let expect_text = std::fs::read_to_string(p.with_extension("expect.json")).unwrap();
        let expect: Value = serde_json::from_str(&expect_text).unwrap();
        let kind = expect["kind"].as_str().unwrap();
        *kinds.entry(kind.to_owned()).or_default() += 1;
        let (st, idx, g) = from_record(&text);
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let problem = match kind {
            "bad" => (!(200..300).contains(&st) || !g.is_null())
                .then(|| format!("want a record error, got {st}")),
            "illegal" => {
                let want = expect["index"].as_u64().unwrap() as usize;
                (!(100..200).contains(&st) || idx != want || !g.is_null())
                    .then(|| format!("want command {want} rejected, got status {st} index {idx}"))
            }
            "pending" => {
                if st == QE_OK {
                    let over = state(g).game_over;
                    let mut o = QeSeatOutcome::default();
                    let no_outcome = unsafe { qe_game_outcome(g, 0, &mut o) } == QE_ERR_NOT_OVER;
                    (over != 0 || !no_outcome).then(|| "game over".to_owned())
                } else {
                    Some(format!("want a pending game, got {st}: {}", last_message()))
                }
            }
            "outcome" => {
                if st == QE_OK {
                    let mut problem = None;
                    // Read typed, so totals past 64 bits compare exactly.
                    #[derive(serde::Deserialize)]
                    struct Expected {
                        outcome: Seats,
                    }
                    #[derive(serde::Deserialize)]
                    struct Seats {
                        seats: Vec<qe_core::SeatOutcome>,
                    }
                    let want: Expected = serde_json::from_str(&expect_text).unwrap();
                    // The names as the expectation spells them, read untyped.
                    let raw: serde_json::Value = serde_json::from_str(&expect_text).unwrap();
                    let named = |i: usize, field: &str, kind: u32, index: u8| {
                        let want = raw["outcome"]["seats"][i][field].as_str();
                        let got = (index != QE_NONE).then(|| name_of(kind, u32::from(index)));
                        (got.as_deref() != want)
                            .then(|| format!("seat {i} {field}: got {got:?}, want {want:?}"))
                    };
                    for (i, w) in want.outcome.seats.iter().enumerate() {
                        let mut o = QeSeatOutcome::default();
                        assert_eq!(unsafe { qe_game_outcome(g, i as u8, &mut o) }, QE_OK);
                        let spent = i128::from(o.spent.hi) << 64 | i128::from(o.spent.lo);
                        let checks = [
                            ("seat", u32::from(o.seat), i as u32),
                            ("companies", o.companies, w.companies),
                            ("zero_bids", o.zero_bids, w.zero_bids),
                            ("nationalization", o.nationalization, w.nationalization),
                            ("monopolization", o.monopolization, w.monopolization),
                            ("diversification", o.diversification, w.diversification),
                            ("commodities", o.commodities, w.commodities),
                            ("subtotal", o.subtotal, w.subtotal),
                            (
                                "least_spent_bonus",
                                o.least_spent_bonus,
                                w.least_spent_bonus,
                            ),
                            ("total", o.total, w.total),
                            ("winner", u32::from(o.winner), u32::from(w.winner)),
                            (
                                "eliminated",
                                u32::from(o.eliminated),
                                u32::from(w.eliminated),
                            ),
                        ];
                        for (field, got, want) in checks {
                            if got != want {
                                problem = Some(format!("seat {i} {field}: got {got}, want {want}"));
                            }
                        }
                        if spent != w.spent {
                            problem =
                                Some(format!("seat {i} spent: got {spent}, want {}", w.spent));
                        }
                        let clamped = w.spent.clamp(i128::from(i64::MIN), i128::from(i64::MAX));
                        if i128::from(o.spent_i64) != clamped {
                            problem = Some(format!(
                                "seat {i} spent_i64: got {}, want {clamped}",
                                o.spent_i64
                            ));
                        }
                        problem = problem
                            .or_else(|| named(i, "nation", QE_NAME_NATION, o.nation))
                            .or_else(|| named(i, "industry", QE_NAME_INDUSTRY, o.industry));
                    }
                    // No seat past the expected ones.
                    let seats = want.outcome.seats.len() as u8;
                    let mut o = QeSeatOutcome::default();
                    let past = unsafe { qe_game_outcome(g, seats, &mut o) };
                    if past != code("SEAT_OUT_OF_RANGE") {
                        problem = Some(format!("seat {seats} of {seats}: status {past}"));
                    }
                    problem
                } else {
                    Some(format!("want an outcome, got {st}: {}", last_message()))
                }
            }
            other => Some(format!("unknown kind {other}")),
        };
        if !g.is_null() {
            free(g);
        }
        if let Some(p) = problem {
            failures.push(format!("{name}: {p}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for k in ["bad", "illegal", "pending", "outcome"] {
        assert!(kinds.get(k).copied().unwrap_or(0) > 0, "no {k} case");
    }
}

/// External chance (R-SET-3) through the C ABI: the caller deals, reveals and draws by index, and
/// the game is the one qe-core plays with the same outcomes, to its record and outcome.
#[test]
fn external_chance_games_match_qe_core() {
    let _pool = pool_shared();
    for (players, expansions) in [(3, 0), (4, 0), (5, QE_EXPANSION_COMMODITIES)] {
        let mut o = QeGameOptions::default();
        assert_eq!(unsafe { qe_game_options_init(&mut o) }, QE_OK);
        o.players = players;
        o.expansions = expansions;
        o.flags = QE_GAME_EXTERNAL_CHANCE;
        let mut g = ptr::null_mut();
        assert_eq!(
            unsafe { qe_game_new_with(&o, &mut g) },
            QE_OK,
            "{}",
            last_message()
        );
        let rules = qe_core::Rules::with_expansions(
            players as u8,
            qe_core::Expansions::from_bits(expansions).unwrap(),
        )
        .unwrap();
        let mut m = Match::new(qe_core::Game::external_chance(rules, None).unwrap());
        let mut rng = Lcg(u64::from(players));
        let mut chances = 0;
        while state(g).game_over == 0 {
            let mut n = 0usize;
            assert_eq!(unsafe { qe_game_chance_count(g, &mut n) }, QE_OK);
            let outcomes = m.game().chance_outcomes();
            assert_eq!(n, outcomes.len());
            if n > 0 {
                assert_eq!(state(g).phase, QE_PHASE_CHANCE);
                let i = (rng.next() as usize) % n;
                let mut s = ptr::null_mut();
                assert_eq!(unsafe { qe_game_chance_json(g, i, &mut s) }, QE_OK);
                let want = Command::Chance(outcomes[i]);
                // The text is the record's (a deal names one token per seat, the set-aside one
                // not), which reads back as the same outcome.
                let text = take(s);
                assert_eq!(text, want.to_json_for(players as u8));
                assert_eq!(Command::from_json(&text).unwrap(), want);
                // Past the end: an error, and nothing changes.
                assert_eq!(
                    unsafe { qe_game_apply_chance(g, n) },
                    QE_ERR_INVALID_ARGUMENT
                );
                assert!(
                    last_message().contains("out of range"),
                    "{}",
                    last_message()
                );
                assert_eq!(unsafe { qe_game_apply_chance(g, i) }, QE_OK);
                m.apply(want).unwrap();
                chances += 1;
                continue;
            }
            assert_eq!(
                unsafe { qe_game_apply_chance(g, 0) },
                QE_ERR_INVALID_ARGUMENT
            );
            assert!(last_message().contains("no chance event is pending"));
            let seat = m.game().to_act().first().unwrap();
            let command = policy(&legal(g, seat.0), seat.0, &mut rng).unwrap();
            assert_eq!(
                unsafe { qe_game_apply(g, command) },
                QE_OK,
                "{}",
                last_message()
            );
            m.apply(core_command(&command)).unwrap();
        }
        // The deal, every reveal, every token drawn.
        assert!(chances > usize::from(m.game().rules().turns()));
        assert_eq!(record(g), m.record().unwrap().to_json());
        free(g);
    }
}

/// `QeSeatInfo.spent_i64` is the total clamped to the int64 range, for totals past 2^63 too
/// (conformance case spent-beyond-u64: at the end every total is known to every viewer).
#[test]
fn seat_info_spent_i64_is_clamped_past_int64() {
    let _pool = pool_shared();
    let path = format!(
        "{}/../conformance/named/spent-beyond-u64.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let (st, _, g) = from_record(&std::fs::read_to_string(path).unwrap());
    assert_eq!(st, QE_OK, "{}", last_message());
    let players = state(g).players;
    let mut past_int64 = 0;
    for viewer in (0..players).chain([QE_SPECTATOR]) {
        for seat in 0..players {
            let mut si = QeSeatInfo::default();
            assert_eq!(
                unsafe { qe_game_seat_info(g, viewer, seat, &mut si) },
                QE_OK
            );
            let mut o = QeSeatOutcome::default();
            assert_eq!(unsafe { qe_game_outcome(g, seat, &mut o) }, QE_OK);
            assert_eq!(si.spent_known, 1);
            assert_eq!(si.spent, o.spent);
            let spent = i128_of(si.spent);
            let clamped = spent.clamp(i64::MIN.into(), i64::MAX.into());
            assert_eq!(
                i128::from(si.spent_i64),
                clamped,
                "viewer {viewer} seat {seat}"
            );
            assert_eq!(si.spent_i64, o.spent_i64);
            past_int64 += u32::from(spent > i128::from(i64::MAX));
        }
    }
    assert!(
        past_int64 > 0,
        "no total past int64: the clamp was not exercised"
    );
    free(g);
}
