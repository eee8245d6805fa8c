//! The cost of one `apply` through the C ABI against the same command applied directly in Rust.
//!
//! Each benchmark replays the commands of one seeded 4-player Commodities game on a fresh game
//! (set-up excluded) and counts commands, so divan reports the time per command.
//!
//! Run: `cargo bench -p qe-ffi`
#![allow(unsafe_code, clippy::borrow_as_ptr, clippy::wildcard_imports)]

use std::ffi::CString;
use std::ptr;

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use qe_core::bots::Bot;
use qe_core::{bots, Command, Game, Match, Rules};
use qe_ffi::*;

const PLAYERS: u8 = 4;
const SEED: u64 = 42;

fn main() {
    divan::main();
}

fn rules() -> Rules {
    Rules::commodities(PLAYERS).unwrap()
}

/// The commands of one whole game, chosen by the baseline random bot.
fn commands() -> Vec<Command> {
    let mut game = Game::seeded(rules(), SEED);
    let mut bot = bots::RandomBot::new(SEED);
    let mut out = Vec::new();
    while !game.is_over() {
        let seat = game.to_act().first().unwrap();
        let c = bot.act(&game.view(seat)).unwrap();
        game.play(c).unwrap();
        out.push(c);
    }
    out
}

fn flat(c: &Command) -> QeCommand {
    match *c {
        Command::Bid { seat, amount } => QeCommand {
            kind: QE_COMMAND_BID,
            seat: seat.0,
            amount,
            ..QeCommand::default()
        },
        Command::TakeAsset { seat, kind } => QeCommand {
            kind: QE_COMMAND_TAKE_ASSET,
            seat: seat.0,
            pile: kind.index() as u8,
            ..QeCommand::default()
        },
        Command::DiscardAsset { seat, kind } => QeCommand {
            kind: QE_COMMAND_DISCARD_ASSET,
            seat: seat.0,
            pile: kind.index() as u8,
            ..QeCommand::default()
        },
        Command::Peek { seat, turn } => QeCommand {
            kind: QE_COMMAND_PEEK,
            seat: seat.0,
            turn,
            ..QeCommand::default()
        },
        _ => unreachable!("benchmarks play seat commands"),
    }
}

fn json(c: &Command) -> CString {
    let text = match *c {
        Command::Bid { seat, amount } => format!(r#"{{"seat":{},"bid":{amount}}}"#, seat.0),
        Command::TakeAsset { seat, kind } => {
            format!(r#"{{"seat":{},"take_asset":"{kind}"}}"#, seat.0)
        }
        Command::DiscardAsset { seat, kind } => {
            format!(r#"{{"seat":{},"discard_asset":"{kind}"}}"#, seat.0)
        }
        Command::Peek { seat, turn } => format!(r#"{{"seat":{},"peek":{turn}}}"#, seat.0),
        _ => unreachable!("benchmarks play seat commands"),
    };
    CString::new(text).unwrap()
}

/// A handle freed on drop (outside the timed region).
struct Handle(*mut QeGame);

impl Handle {
    fn new() -> Handle {
        let mut g = ptr::null_mut();
        assert_eq!(unsafe { qe_game_new(PLAYERS, 1, SEED, &mut g) }, QE_OK);
        Handle(g)
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        unsafe { qe_game_free(self.0) };
    }
}

/// Direct: `Game::play`, no history (the fastest Rust path).
#[divan::bench]
fn rust_game_play(b: Bencher) {
    let cs = commands();
    b.counter(ItemsCount::new(cs.len()))
        .with_inputs(|| Game::seeded(rules(), SEED))
        .bench_local_refs(|g| {
            for c in &cs {
                g.play(black_box(*c)).unwrap();
            }
        });
}

/// Direct: `Match::play`, with history, events not handed back (what `qe_game_apply` wraps).
#[divan::bench]
fn rust_match_play(b: Bencher) {
    let cs = commands();
    b.counter(ItemsCount::new(cs.len()))
        .with_inputs(|| Match::seeded(rules(), SEED))
        .bench_local_refs(|m| {
            for c in &cs {
                m.play(black_box(*c)).unwrap();
            }
        });
}

/// Direct: `Match::apply`, with history, the command's events handed back.
#[divan::bench]
fn rust_match_apply(b: Bencher) {
    let cs = commands();
    b.counter(ItemsCount::new(cs.len()))
        .with_inputs(|| Match::seeded(rules(), SEED))
        .bench_local_refs(|m| {
            for c in &cs {
                m.apply(black_box(*c)).unwrap();
            }
        });
}

/// Through the ABI: `qe_game_apply` with a flat `QeCommand`.
#[divan::bench]
fn abi_apply(b: Bencher) {
    let cs: Vec<QeCommand> = commands().iter().map(flat).collect();
    b.counter(ItemsCount::new(cs.len()))
        .with_inputs(Handle::new)
        .bench_local_refs(|h| {
            for c in &cs {
                let st = unsafe { qe_game_apply(h.0, black_box(*c)) };
                debug_assert_eq!(st, QE_OK);
                black_box(st);
            }
        });
}

/// Through the ABI: one game-loop step: `qe_game_state` + `qe_game_legal` + `qe_game_apply`.
#[divan::bench]
fn abi_state_legal_apply(b: Bencher) {
    let cs: Vec<QeCommand> = commands().iter().map(flat).collect();
    b.counter(ItemsCount::new(cs.len()))
        .with_inputs(Handle::new)
        .bench_local_refs(|h| {
            let mut s = QeState::default();
            let mut l = QeLegal::default();
            for c in &cs {
                unsafe {
                    qe_game_state(h.0, &mut s);
                    qe_game_legal(h.0, c.seat, &mut l);
                    black_box((&s, &l));
                    black_box(qe_game_apply(h.0, black_box(*c)));
                }
            }
        });
}

/// Through the ABI: `qe_game_apply_json` (parsing the record-format command).
#[divan::bench]
fn abi_apply_json(b: Bencher) {
    let cs: Vec<CString> = commands().iter().map(json).collect();
    b.counter(ItemsCount::new(cs.len()))
        .with_inputs(Handle::new)
        .bench_local_refs(|h| {
            for c in &cs {
                black_box(unsafe { qe_game_apply_json(h.0, c.as_ptr()) });
            }
        });
}

/// A rejected command through the ABI (status, message and the last error kept).
#[divan::bench]
fn abi_apply_rejected(b: Bencher) {
    let h = Handle::new();
    let bad = QeCommand {
        kind: QE_COMMAND_BID,
        seat: 1,
        amount: 3,
        ..QeCommand::default()
    };
    b.bench_local(|| unsafe { qe_game_apply(h.0, black_box(bad)) });
}
