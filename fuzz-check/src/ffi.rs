//! The `ffi` target: arbitrary call sequences on the C ABI of `qe-ffi`.
//!
//! The input is a byte placing the window of deeply checked calls (see [`fuzz`]), then a
//! byte-coded list of at most [`MAX_CALLS`] calls on up to four live handles, each mirrored by a
//! shadow [`Match`] driven through `qe-core` directly; a guided apply plays a run of one to eight
//! legal commands, so that a whole game fits in a few dozen calls. Checked ([`check`]: all of it
//! on every call):
//! - no call panics (a caught panic, `QE_ERR_PANIC`, is a finding; the fuzzer's panic hook aborts
//!   on any panic anyway) and, under AddressSanitizer, no memory error;
//! - every status is `QE_OK` exactly when the same operation succeeds on the shadow game, and the
//!   game behind a handle stays equal to its shadow (state, seats to act, legal actions, views,
//!   events per viewer, outcome, record);
//! - out-pointers are written only on success;
//! - NULL handles and NULL out-pointers give `QE_ERR_NULL_POINTER`; freed handles (whose cell has
//!   not been reused by a newer game, the case the ABI promises to detect) give
//!   `QE_ERR_INVALID_HANDLE`, for every entry point and for a double free;
//! - the last-error functions report the last failure, and buffers are NUL-terminated and never
//!   overrun;
//! - a raw JSON command gets the status of [`Command::from_json`] and the shadow's `apply`, and the
//!   record reader reads it the same as a record's only command;
//! - at the end, every live handle equals its shadow.

use std::ffi::{c_char, CStr, CString};
use std::mem::MaybeUninit;
use std::ptr::{null, null_mut};

use qe_core::{AssetKind, Command, Match, Phase, Record, Rules, Seat};
use qe_ffi::{
    qe_abi_version, qe_game_apply, qe_game_apply_json, qe_game_auction, qe_game_bid_range,
    qe_game_clone, qe_game_events, qe_game_events_json, qe_game_events_pending, qe_game_free,
    qe_game_from_record, qe_game_legal, qe_game_new, qe_game_outcome, qe_game_outcome_json,
    qe_game_record_json, qe_game_seat_info, qe_game_state, qe_game_to_act, qe_game_view_json,
    qe_last_error_message, qe_last_error_rule, qe_last_error_status, qe_name, qe_string_free,
    QeAuction, QeBidRange, QeCommand, QeEvent, QeGame, QeLegal, QeSeatInfo, QeSeatOutcome, QeState,
    QeStatus, QE_ERR_INVALID_ARGUMENT, QE_ERR_INVALID_HANDLE, QE_ERR_NULL_POINTER, QE_ERR_PANIC,
    QE_OK, QE_SPECTATOR,
};

/// The header's `QE_ERR_SEAT_OUT_OF_RANGE`: a rules code, declared in qe-core's table of codes.
fn seat_out_of_range() -> QeStatus {
    qe_core::CommandError::SeatOutOfRange { seat: 0 }.code()
}

use crate::Bytes;

/// The most live handles at once.
const SLOTS: usize = 4;
/// The most calls one input makes (later bytes are ignored). Every call goes through the C ABI
/// under AddressSanitizer and through the shadow game, so the calls an input makes are what its
/// execution costs: 64 calls hold a whole game (guided applies play runs of commands). The limits
/// below keep the target above 1,000 executions a second (fuzz/README.md, "Builds and speed").
pub const MAX_CALLS: usize = 64;
/// The most `qe_game_from_record` calls one input makes (each reads and replays a whole record
/// twice, in the library and in qe-core); later ones are skipped.
const MAX_FROM_RECORD: usize = 1;
/// The most JSON documents (views, event lists, outcomes, records) one input asks for with the
/// query calls; later such queries are skipped. Without a limit the fuzzer learns to query
/// late-game views over and over, and writing them under AddressSanitizer dominates the time.
const MAX_DOCUMENTS: usize = 4;
/// What one input has spent of the costly calls it may make ([`MAX_FROM_RECORD`],
/// [`MAX_DOCUMENTS`]); a call over its limit is skipped.
#[derive(Default)]
struct Budget {
    from_record: usize,
    documents: usize,
}

impl Budget {
    /// Counts a `qe_game_from_record` call; false (skip it) once the limit is reached.
    fn spend_from_record(&mut self) -> bool {
        Self::spend(&mut self.from_record, MAX_FROM_RECORD)
    }

    /// Counts a query for a JSON document; false (skip it) once the limit is reached.
    fn spend_document(&mut self) -> bool {
        Self::spend(&mut self.documents, MAX_DOCUMENTS)
    }

    fn spend(spent: &mut usize, limit: usize) -> bool {
        if *spent == limit {
            return false;
        }
        *spent += 1;
        true
    }
}

/// The longest run of legal commands one guided apply plays.
const MAX_RUN: usize = 8;

struct Slot {
    handle: *mut QeGame,
    shadow: Match,
    /// Events read so far per viewer (seats, then the spectator).
    cursors: [usize; 6],
}

/// How many consecutive calls the `ffi` fuzz target checks deeply.
pub const WINDOW: usize = 8;

/// Runs a call sequence with every check on every call: what the regression test and `repro` run.
pub fn check(data: &[u8]) {
    run(data, None);
}

/// The `ffi` fuzz target: the same calls with the same checks, except that the deep ones (reading
/// back, parsing or replaying what a call returned, and comparing the game behind a handle after
/// an apply) run only on the [`WINDOW`] calls from call number `b % MAX_CALLS`, `b` the input's
/// first byte.
pub fn fuzz(data: &[u8]) {
    run(data, Some(WINDOW));
}

/// Runs a call sequence: the first byte places the window of deeply checked calls (`window`:
/// its length, `None` for every call), then the calls.
fn run(data: &[u8], window: Option<usize>) {
    let mut b = Bytes::new(data);
    let start = usize::from(b.u8()) % MAX_CALLS;
    let mut slots: Vec<Slot> = Vec::new();
    let mut stale: Vec<*mut QeGame> = Vec::new();
    let mut calls = 0;
    let mut budget = Budget::default();
    while !b.is_empty() && calls < MAX_CALLS {
        let deep = window.is_none_or(|len| (start..start + len).contains(&calls));
        calls += 1;
        let op = b.u8();
        if op % 16 == 2 && !budget.spend_from_record() {
            continue;
        }
        // SAFETY: every handle passed below is NULL, live (in `slots`) or freed by this input and not
        // reused since (in `stale`, pruned on every allocation): the cases the ABI defines.
        unsafe { step(op, &mut b, &mut slots, &mut stale, deep, &mut budget) };
        if deep {
            last_error_names_its_rule();
        }
    }
    for s in slots {
        // SAFETY: live handle.
        unsafe { compare(&s) };
        // SAFETY: live handle.
        assert_eq!(unsafe { qe_game_free(s.handle) }, QE_OK);
    }
}

fn ok(status: QeStatus, what: &str) {
    assert_ne!(
        status, QE_ERR_PANIC,
        "{what}: a panic was caught inside the library"
    );
    assert_eq!(status, QE_OK, "{what}: {}", last_message());
}

/// The last error's rule ID is the one its message names: a rules, set-up or record error
/// (100–299) has one, and its message starts with it (or with `command K: ` and it); any other
/// status has none.
fn last_error_names_its_rule() {
    let mut status = QE_OK;
    // SAFETY: valid out-pointer.
    ok(
        unsafe { qe_last_error_status(&raw mut status) },
        "last status",
    );
    let mut buf = [0 as c_char; 16];
    let mut len = 0usize;
    // SAFETY: valid buffer and length pointer.
    let st = unsafe { qe_last_error_rule(buf.as_mut_ptr(), buf.len(), &raw mut len) };
    ok(st, "last rule");
    // SAFETY: the library NUL-terminates within `cap`.
    let rule = unsafe { CStr::from_ptr(buf.as_ptr()) }
        .to_str()
        .expect("UTF-8");
    assert_eq!(rule.len(), len);
    let message = last_message();
    if (100..300).contains(&status) {
        assert!(
            !rule.is_empty(),
            "status {status} without a rule: {message}"
        );
        let after_command = message
            .strip_prefix("command ")
            .and_then(|m| m.split_once(": "))
            .filter(|(k, _)| k.parse::<usize>().is_ok())
            .map(|(_, rest)| rest);
        assert!(
            message.starts_with(&format!("{rule}: "))
                || after_command.is_some_and(|m| m.starts_with(&format!("{rule}: "))),
            "rule {rule} is not the one the message names: {message}"
        );
    } else {
        assert_eq!(rule, "", "status {status} with a rule: {message}");
    }
}

fn last_message() -> String {
    let mut buf = [0 as c_char; 512];
    let mut len = 0usize;
    // SAFETY: valid buffer and length pointer.
    let st = unsafe { qe_last_error_message(buf.as_mut_ptr(), buf.len(), &raw mut len) };
    assert!(st == QE_OK || st == qe_ffi::QE_ERR_BUFFER_TOO_SMALL);
    // SAFETY: the library NUL-terminates within `cap`.
    unsafe { CStr::from_ptr(buf.as_ptr()) }
        .to_string_lossy()
        .into_owned()
}

/// Takes a string the library returned, and frees it.
unsafe fn take_string(p: *mut c_char) -> String {
    assert!(!p.is_null());
    // SAFETY: a NUL-terminated string from the library.
    let s = unsafe { CStr::from_ptr(p) }
        .to_str()
        .expect("UTF-8")
        .to_owned();
    // SAFETY: returned by the library, freed once.
    assert_eq!(unsafe { qe_string_free(p) }, QE_OK);
    s
}

fn add_slot(
    slots: &mut Vec<Slot>,
    stale: &mut Vec<*mut QeGame>,
    handle: *mut QeGame,
    shadow: Match,
) {
    assert!(!handle.is_null());
    // A freed cell reused by this game is live again: no longer a detectable stale handle.
    stale.retain(|&p| p != handle);
    assert!(
        slots.iter().all(|s| s.handle != handle),
        "a live handle was handed out twice"
    );
    slots.push(Slot {
        handle,
        shadow,
        cursors: [0; 6],
    });
}

fn cursor(viewer: u8) -> usize {
    if viewer == QE_SPECTATOR {
        5
    } else {
        viewer as usize
    }
}

/// A viewer byte: mostly a valid seat or the spectator, sometimes anything.
fn viewer_of(b: &mut Bytes, players: u8) -> u8 {
    let v = b.u8();
    match v % 4 {
        0 => QE_SPECTATOR,
        1 => v,
        _ => v % players,
    }
}

fn command_json(c: &Command) -> String {
    match *c {
        Command::Bid { seat, amount } => format!("{{\"seat\":{},\"bid\":{amount}}}", seat.0),
        Command::TakeAsset { seat, kind } => {
            format!("{{\"seat\":{},\"take_asset\":\"{}\"}}", seat.0, kind.name())
        }
        Command::DiscardAsset { seat, kind } => {
            format!(
                "{{\"seat\":{},\"discard_asset\":\"{}\"}}",
                seat.0,
                kind.name()
            )
        }
        Command::Peek { seat, turn } => format!("{{\"seat\":{},\"peek\":{turn}}}", seat.0),
        _ => "{}".to_owned(),
    }
}

/// A legal command of the shadow game, picked by `pick` (as the engine target's guided op).
fn guided(m: &Match, pick: u8, amount: u64) -> Option<Command> {
    let game = m.game();
    let to_act = game.to_act();
    let seat = to_act.iter().nth(pick as usize % to_act.len().max(1))?;
    let legal = game.legal(seat);
    if let Some(r) = legal.bid {
        let mut x = amount.max(r.min);
        if Some(x) == r.forbidden {
            x = x.checked_add(1).unwrap_or(x - 1);
        }
        return Some(Command::Bid { seat, amount: x });
    }
    let piles: Vec<AssetKind> = legal.take.iter().chain(legal.discard.iter()).collect();
    let kind = *piles.get(pick as usize / 8 % piles.len().max(1))?;
    Some(if legal.take.is_empty() {
        Command::DiscardAsset { seat, kind }
    } else {
        Command::TakeAsset { seat, kind }
    })
}

fn ffi_command(c: &Command) -> QeCommand {
    let mut q = QeCommand::default();
    match *c {
        Command::Bid { seat, amount } => {
            q.kind = qe_ffi::QE_COMMAND_BID;
            q.seat = seat.0;
            q.amount = amount;
        }
        Command::TakeAsset { seat, kind } => {
            q.kind = qe_ffi::QE_COMMAND_TAKE_ASSET;
            q.seat = seat.0;
            q.pile = kind.index() as u8;
        }
        Command::DiscardAsset { seat, kind } => {
            q.kind = qe_ffi::QE_COMMAND_DISCARD_ASSET;
            q.seat = seat.0;
            q.pile = kind.index() as u8;
        }
        Command::Peek { seat, turn } => {
            q.kind = qe_ffi::QE_COMMAND_PEEK;
            q.seat = seat.0;
            q.turn = turn;
        }
        _ => q.kind = 99,
    }
    q
}

/// The qe-core command a raw `QeCommand` stands for, if its fields are valid.
fn core_command(q: &QeCommand) -> Option<Command> {
    if q.reserved != 0 {
        return None;
    }
    let seat = Seat(q.seat);
    let pile = AssetKind::from_index(q.pile as usize);
    Some(match q.kind {
        qe_ffi::QE_COMMAND_BID => Command::Bid {
            seat,
            amount: q.amount,
        },
        qe_ffi::QE_COMMAND_TAKE_ASSET => Command::TakeAsset { seat, kind: pile? },
        qe_ffi::QE_COMMAND_DISCARD_ASSET => Command::DiscardAsset { seat, kind: pile? },
        qe_ffi::QE_COMMAND_PEEK => Command::Peek { seat, turn: q.turn },
        _ => return None,
    })
}

/// Applies through the ABI and on the shadow, and checks they agree (the statuses always; the
/// game behind the handle if `deep`).
unsafe fn apply_both(slot: &mut Slot, status: QeStatus, command: Option<Command>, deep: bool) {
    assert_ne!(
        status,
        QE_ERR_PANIC,
        "apply: panic caught: {}",
        last_message()
    );
    match command {
        Some(c) => {
            let shadow = slot.shadow.apply(c);
            assert_eq!(
                status == QE_OK,
                shadow.is_ok(),
                "apply {c:?}: ABI status {status} ({}), qe-core {shadow:?}",
                last_message()
            );
            if let Err(e) = shadow {
                assert_eq!(
                    status,
                    QeStatus::from(e.code()),
                    "status ≠ CommandError::code()"
                );
            }
        }
        None => assert_ne!(status, QE_OK, "an invalid command was accepted"),
    }
    if deep {
        // SAFETY: live handle.
        unsafe { compare(slot) };
    }
}

/// Checks the handle against its shadow.
unsafe fn compare(slot: &Slot) {
    let game = slot.shadow.game();
    let mut st = QeState::default();
    // SAFETY: live handle, valid out-pointer.
    ok(unsafe { qe_game_state(slot.handle, &raw mut st) }, "state");
    assert_eq!(st.to_act, game.to_act().bits());
    assert_eq!(st.turn, game.turn());
    assert_eq!(st.players, game.players());
    assert_eq!(st.game_over, u8::from(game.is_over()));
    let mut mask = 0xEEu8;
    // SAFETY: as above.
    ok(
        unsafe { qe_game_to_act(slot.handle, &raw mut mask) },
        "to_act",
    );
    assert_eq!(mask, game.to_act().bits());
    for s in 0..game.players() {
        let mut legal = QeLegal::default();
        // SAFETY: as above.
        ok(
            unsafe { qe_game_legal(slot.handle, s, &raw mut legal) },
            "legal",
        );
        assert_eq!(legal.must_act, u8::from(game.legal(Seat(s)).must_act()));
        assert_eq!(legal.peek, game.legal(Seat(s)).peek);
    }
}

/// One call. Every call is made and every status checked whatever `deep`; with `deep` false the
/// checks that read, parse or replay what a call returned are skipped: the game behind the handle
/// after an apply ([`compare`]), a record read back, the JSON of views, events and outcomes
/// compared by content, a rejected record's or a view's expected values computed through qe-core,
/// and the cross-check of the command reader with the record reader. The calls, the handles and
/// the shadows are the same either way, so a failure found with `deep` off fails with it on.
#[allow(clippy::too_many_lines)]
unsafe fn step(
    op: u8,
    b: &mut Bytes,
    slots: &mut Vec<Slot>,
    stale: &mut Vec<*mut QeGame>,
    deep: bool,
    budget: &mut Budget,
) {
    let pick = |b: &mut Bytes, slots: &Vec<Slot>| -> Option<usize> {
        let i = b.u8() as usize;
        (!slots.is_empty()).then(|| i % slots.len())
    };
    match op % 16 {
        // qe_game_new
        0 | 1 => {
            let players = if op & 0x80 != 0 {
                b.u8()
            } else {
                3 + b.u8() % 3
            };
            let commodities = if op & 0x40 != 0 { b.u8() } else { b.u8() & 1 };
            let seed = b.u64();
            if slots.len() >= SLOTS {
                let s = slots.remove(0);
                // SAFETY: live handle.
                ok(unsafe { qe_game_free(s.handle) }, "free");
                stale.push(s.handle);
            }
            let mut out: *mut QeGame = null_mut();
            // SAFETY: valid out-pointer.
            let st = unsafe { qe_game_new(players, commodities, seed, &raw mut out) };
            let rules = match commodities {
                0 => Rules::base(players).ok(),
                1 => Rules::commodities(players).ok(),
                _ => None,
            };
            match rules {
                Some(r) => {
                    ok(st, "new");
                    add_slot(slots, stale, out, Match::seeded(r, seed));
                }
                None => {
                    assert!(
                        st == qe_core::SetupError::Players { players: 0 }.code()
                            || st == QE_ERR_INVALID_ARGUMENT,
                        "new: {st}"
                    );
                    assert!(out.is_null(), "out written on failure");
                    let mut last = 0;
                    // SAFETY: valid out-pointer.
                    ok(
                        unsafe { qe_last_error_status(&raw mut last) },
                        "last status",
                    );
                    assert_eq!(last, st);
                }
            }
        }
        // qe_game_from_record: a live game's record, maybe cut or altered, or raw text
        2 => {
            let mode = b.u8();
            // The record of a live game, when the text is that record unaltered: what the text
            // reads as (checked in the deep window), without parsing it again.
            let mut unaltered: Option<Record> = None;
            let text = if let (Some(i), true) = (pick(b, slots), mode & 1 == 0) {
                let mut json: *mut c_char = null_mut();
                // SAFETY: live handle, valid out-pointer.
                ok(
                    unsafe { qe_game_record_json(slots[i].handle, &raw mut json) },
                    "record_json",
                );
                // SAFETY: returned by the library.
                let mut text = unsafe { take_string(json) };
                if deep {
                    assert_eq!(
                        Record::from_json(&text).ok(),
                        slots[i].shadow.record(),
                        "the ABI's record differs from qe-core's"
                    );
                }
                // Record JSON is ASCII: any byte offset is a character boundary.
                assert!(text.is_ascii());
                let at = b.u16() as usize % (text.len() + 1);
                match (mode >> 1) & 3 {
                    0 => unaltered = slots[i].shadow.record(),
                    1 => text.truncate(at),
                    2 => text.insert(at, char::from(b.u8() & 0x7f).max(' ')),
                    _ => {
                        if at < text.len() {
                            text.remove(at);
                        }
                    }
                }
                text
            } else {
                let raw = b.list(64);
                String::from_utf8_lossy(&raw).into_owned()
            };
            let c = CString::new(text.replace('\0', "")).expect("no NUL");
            let mut out: *mut QeGame = null_mut();
            let mut failed = 7usize;
            // SAFETY: valid string and out-pointers.
            let st = unsafe { qe_game_from_record(c.as_ptr(), &raw mut failed, &raw mut out) };
            assert_ne!(
                st,
                QE_ERR_PANIC,
                "from_record: panic caught: {}",
                last_message()
            );
            if !deep && st != QE_OK {
                // What qe-core makes of the text is only needed for a game to shadow.
                assert!(out.is_null(), "from_record: out written on failure");
                return;
            }
            let expected = match unaltered {
                Some(r) if !deep => Ok(r.replay()),
                _ => Record::from_json(c.to_str().expect("UTF-8")).map(|r| r.replay()),
            };
            match expected {
                Ok(Ok(m)) => {
                    ok(st, "from_record");
                    assert_eq!(failed, usize::MAX);
                    if slots.len() >= SLOTS {
                        // SAFETY: live handle.
                        ok(unsafe { qe_game_free(out) }, "free");
                        stale.retain(|&p| p != out);
                        stale.push(out);
                    } else {
                        add_slot(slots, stale, out, m);
                        if deep {
                            // SAFETY: live handle.
                            unsafe { compare(slots.last().expect("just added")) };
                        }
                    }
                }
                Ok(Err(qe_core::ReplayError::Command { index, .. })) => {
                    assert_ne!(st, QE_OK);
                    assert_eq!(failed, index, "failed_index");
                    assert!(out.is_null());
                }
                _ => {
                    assert_ne!(st, QE_OK, "from_record accepted what qe-core rejects");
                    assert_eq!(failed, usize::MAX);
                    assert!(out.is_null());
                }
            }
        }
        // qe_game_clone
        3 => {
            let Some(i) = pick(b, slots) else { return };
            if slots.len() >= SLOTS {
                return;
            }
            let mut out: *mut QeGame = null_mut();
            // SAFETY: live handle, valid out-pointer.
            ok(
                unsafe { qe_game_clone(slots[i].handle, &raw mut out) },
                "clone",
            );
            let shadow = slots[i].shadow.clone();
            let cursors = slots[i].cursors;
            add_slot(slots, stale, out, shadow);
            slots.last_mut().expect("just added").cursors = cursors;
        }
        // qe_game_free
        4 => {
            let Some(i) = pick(b, slots) else { return };
            let s = slots.remove(i);
            // SAFETY: live handle.
            ok(unsafe { qe_game_free(s.handle) }, "free");
            stale.push(s.handle);
        }
        // qe_game_apply, raw fields
        5 => {
            let Some(i) = pick(b, slots) else { return };
            let q = QeCommand {
                kind: u32::from(b.u8() % 5),
                seat: b.u8() % 7,
                pile: b.u8() % 4,
                turn: b.u8() % 18,
                reserved: u8::from(b.u8() == 0xff),
                amount: match b.u8() % 3 {
                    0 => u64::from(b.u8() % 8),
                    1 => u64::MAX - u64::from(b.u8() % 3),
                    _ => b.u64(),
                },
            };
            // SAFETY: live handle.
            let st = unsafe { qe_game_apply(slots[i].handle, q) };
            // SAFETY: live handle.
            unsafe { apply_both(&mut slots[i], st, core_command(&q), deep) };
        }
        // qe_game_apply / qe_game_apply_json, a run of legal commands
        6..=8 => {
            let Some(i) = pick(b, slots) else { return };
            // Fixed size (slot, pick, selector, value), so that mutations keep the calls aligned.
            let p = b.u8();
            let (sel, x) = (b.u8(), b.u8());
            let amount = match sel % 4 {
                0 => u64::from(p % 6),
                1 => 1000 + u64::from(x),
                2 => u64::MAX - u64::from(x % 3),
                _ => u64::from(x % 6),
            };
            // The selector's high bits: how many commands (1 to MAX_RUN), each picked by `p`.
            for _ in 0..=usize::from(sel >> 2) % MAX_RUN {
                let Some(c) = guided(&slots[i].shadow, p, amount) else {
                    return;
                };
                let st = if op % 16 == 8 {
                    let json = CString::new(command_json(&c)).expect("no NUL");
                    // SAFETY: live handle, valid string.
                    unsafe { qe_game_apply_json(slots[i].handle, json.as_ptr()) }
                } else {
                    // SAFETY: live handle.
                    unsafe { qe_game_apply(slots[i].handle, ffi_command(&c)) }
                };
                // SAFETY: live handle.
                unsafe { apply_both(&mut slots[i], st, Some(c), deep) };
                assert_eq!(st, QE_OK, "a legal command was rejected");
            }
        }
        // qe_game_apply_json, raw text
        9 => {
            let Some(i) = pick(b, slots) else { return };
            let raw = b.list(40);
            let text = String::from_utf8_lossy(&raw).replace('\0', "");
            let c = CString::new(text.clone()).expect("no NUL");
            // SAFETY: live handle, valid string.
            let st = unsafe { qe_game_apply_json(slots[i].handle, c.as_ptr()) };
            assert_ne!(st, QE_ERR_PANIC);
            // What qe-core makes of it: the same reader (a chance outcome is read, and rejected
            // by a game that is not in external-chance mode).
            let command = Command::from_json(&text).ok();
            if deep {
                // The record reader agrees: as a record's only command it reads the same (a
                // record holds no chance outcome).
                let in_record = serde_json::from_str::<serde_json::Value>(&text)
                    .ok()
                    .and_then(|_| {
                        let doc = Match::seeded(Rules::base(3).expect("3"), 0)
                            .record()
                            .expect("record")
                            .to_json()
                            .replace(r#""commands":[]"#, &format!(r#""commands":[{text}]"#));
                        Record::from_json(&doc).ok()
                    })
                    .filter(|r| r.commands.len() == 1)
                    .and_then(|r| r.commands.into_iter().next());
                match in_record {
                    Some(Ok(c)) => assert_eq!(command, Some(c), "the readers differ on {text:?}"),
                    Some(Err(_)) => assert!(
                        matches!(command, None | Some(Command::Chance(_))),
                        "the record reader rejects {text:?}, the command reader reads {command:?}"
                    ),
                    None => {}
                }
            }
            // SAFETY: live handle.
            unsafe { apply_both(&mut slots[i], st, command, deep) };
        }
        // queries
        10 | 11 => {
            let Some(i) = pick(b, slots) else { return };
            // SAFETY: live handle.
            unsafe { query(b, &mut slots[i], deep, budget) };
        }
        // NULL handles and NULL out-pointers
        12 => {
            let live = pick(b, slots).map(|i| slots[i].handle);
            // SAFETY: NULL or live handles, NULL out-pointers.
            unsafe { nulls(b.u8(), live) };
        }
        // stale (freed, not reused) handles
        13 => {
            if stale.is_empty() {
                return;
            }
            let h = stale[b.u8() as usize % stale.len()];
            // SAFETY: a freed handle whose cell has not been reused.
            unsafe { stale_use(b.u8(), h) };
        }
        // library-wide functions
        _ => {
            let mut v = 0u32;
            // SAFETY: valid out-pointer.
            ok(unsafe { qe_abi_version(&raw mut v) }, "abi_version");
            assert_eq!(v, qe_ffi::QE_ABI_VERSION);
            let kind = u32::from(b.u8() % 6);
            let index = u32::from(b.u8() % 24);
            let cap = b.u8() as usize % 20;
            let mut buf = vec![0x55 as c_char; cap + 4];
            let mut len = usize::MAX;
            // SAFETY: `buf` is valid for `cap` bytes.
            let st = unsafe { qe_name(kind, index, buf.as_mut_ptr(), cap, &raw mut len) };
            assert_ne!(st, QE_ERR_PANIC);
            assert!(
                buf[cap..].iter().all(|&c| c == 0x55),
                "qe_name wrote past `cap`"
            );
            if st == QE_OK {
                assert!(len < cap);
                assert_eq!(buf[len], 0);
            }
            let cap = b.u8() as usize % 40;
            let mut buf = vec![0x55 as c_char; cap + 4];
            // SAFETY: `buf` is valid for `cap` bytes.
            let st = unsafe { qe_last_error_message(buf.as_mut_ptr(), cap, null_mut()) };
            assert_ne!(st, QE_ERR_PANIC);
            assert!(
                buf[cap..].iter().all(|&c| c == 0x55),
                "last_error_message wrote past `cap`"
            );
            if cap > 0 {
                assert!(buf[..cap].contains(&0), "not NUL-terminated");
            }
        }
    }
}

/// One query on a live handle, checked against the shadow (the returned JSON by content, views
/// and the record replayed only if `deep`). A query for a JSON document is spent from `budget`,
/// and skipped once [`MAX_DOCUMENTS`] have been written.
unsafe fn query(b: &mut Bytes, slot: &mut Slot, deep: bool, budget: &mut Budget) {
    let game = *slot.shadow.game();
    let n = game.players();
    let h = slot.handle;
    // Fixed size (selector + 3 argument bytes), so that mutations keep the calls aligned.
    let sel = b.u8();
    let args: [u8; 3] = b.array();
    let b = &mut Bytes::new(&args);
    if matches!(sel % 10, 3 | 6 | 8 | 9) && !budget.spend_document() {
        return;
    }
    match sel % 10 {
        0 => {
            let seat = b.u8() % 8;
            let mut r = QeBidRange::default();
            // SAFETY: live handle, valid out-pointer.
            let st = unsafe { qe_game_bid_range(h, seat, &raw mut r) };
            if seat < n {
                ok(st, "bid_range");
                assert_eq!(r, QeBidRange::from(game.bid_range(Seat(seat))));
            } else {
                assert_eq!(st, seat_out_of_range());
            }
        }
        1 => {
            let viewer = viewer_of(b, n);
            let seat = b.u8() % 7;
            let mut info = QeSeatInfo::default();
            // SAFETY: as above.
            let st = unsafe { qe_game_seat_info(h, viewer, seat, &raw mut info) };
            let valid_viewer = viewer == QE_SPECTATOR || viewer < n;
            if valid_viewer && seat < n {
                ok(st, "seat_info");
                if !deep {
                    return;
                }
                let view = if viewer == QE_SPECTATOR {
                    game.public_view()
                } else {
                    game.view(Seat(viewer))
                };
                let s = &view.seats[qe_core::Seat(seat)];
                assert_eq!(info.spent_known, u8::from(s.spent.is_some()));
                assert_eq!(info.tiles, s.tiles);
            } else {
                assert_eq!(st, seat_out_of_range());
            }
        }
        2 => {
            let viewer = viewer_of(b, n);
            let turn = b.u8() % 18;
            let mut a = QeAuction::default();
            // SAFETY: as above.
            let st = unsafe { qe_game_auction(h, viewer, turn, &raw mut a) };
            assert_ne!(st, QE_ERR_PANIC, "auction: panic caught");
            if !deep {
                return;
            }
            let valid =
                (viewer == QE_SPECTATOR || viewer < n) && turn < game.public_view().turns_started;
            assert_eq!(st == QE_OK, valid, "auction({viewer}, {turn}): {st}");
        }
        3 => {
            let viewer = viewer_of(b, n);
            let mut json: *mut c_char = null_mut();
            // SAFETY: as above.
            let st = unsafe { qe_game_view_json(h, viewer, &raw mut json) };
            if viewer == QE_SPECTATOR || viewer < n {
                ok(st, "view_json");
                // SAFETY: returned by the library.
                let text = unsafe { take_string(json) };
                if !deep {
                    return;
                }
                // The ABI's view JSON is the shadow's `MatchView` (the seat view, hidden totals
                // hidden, and the bid history) written by the same serializer, then the derived
                // `spend_bounds`: the text starts with the shadow's view, its closing brace left
                // out (comparing text, not parsed values, keeps this check cheap).
                let view = slot
                    .shadow
                    .view((viewer != QE_SPECTATOR).then_some(Seat(viewer)));
                let expected = serde_json::to_string(&view).expect("view JSON");
                let fields = expected.strip_suffix('}').expect("a JSON object");
                assert!(
                    text.strip_prefix(fields)
                        .is_some_and(|rest| rest.starts_with(",\"spend_bounds\":")),
                    "view JSON differs from the shadow's view:\n{text}\n{expected}"
                );
            } else {
                assert_eq!(st, seat_out_of_range());
                assert!(json.is_null());
            }
        }
        4 | 5 => {
            let viewer = viewer_of(b, n);
            let valid = viewer == QE_SPECTATOR || viewer < n;
            let mut pending = usize::MAX;
            // SAFETY: as above.
            let st = unsafe { qe_game_events_pending(h, viewer, &raw mut pending) };
            if !valid {
                assert_eq!(st, seat_out_of_range());
                return;
            }
            ok(st, "events_pending");
            let all = slot.shadow.events();
            let c = cursor(viewer);
            assert_eq!(pending, all.len() - slot.cursors[c]);
            let cap = b.u8() as usize % 8;
            let mut buf: Vec<MaybeUninit<QeEvent>> = Vec::with_capacity(cap);
            let mut count = usize::MAX;
            let ptr = if cap == 0 && b.u8() & 1 == 0 {
                null_mut()
            } else {
                buf.as_mut_ptr().cast::<QeEvent>()
            };
            // SAFETY: `ptr` is valid for `cap` events (or NULL with `cap` 0).
            ok(
                unsafe { qe_game_events(h, viewer, ptr, cap, &raw mut count) },
                "events",
            );
            assert_eq!(count, cap.min(pending));
            for k in 0..count {
                // SAFETY: the library wrote `count` events.
                let e = unsafe { buf.as_ptr().add(k).cast::<QeEvent>().read() };
                let core = all[slot.cursors[c] + k];
                let seen = core.as_seen(
                    slot.shadow
                        .viewer((viewer != QE_SPECTATOR).then_some(Seat(viewer))),
                );
                assert_eq!(e, QeEvent::from(&seen), "event {k} differs");
            }
            slot.cursors[c] += count;
        }
        6 => {
            let viewer = viewer_of(b, n);
            let mut json: *mut c_char = null_mut();
            // SAFETY: as above.
            let st = unsafe { qe_game_events_json(h, viewer, &raw mut json) };
            if viewer == QE_SPECTATOR || viewer < n {
                ok(st, "events_json");
                // SAFETY: returned by the library.
                let text = unsafe { take_string(json) };
                let c = cursor(viewer);
                if deep {
                    // The events as the viewer sees them, written by the same serializer: equal
                    // text (comparing the text, not parsed values, keeps this check cheap on
                    // whole games).
                    let events: Vec<qe_core::Event> = slot
                        .shadow
                        .events_as_seen((viewer != QE_SPECTATOR).then_some(Seat(viewer)))
                        .skip(slot.cursors[c])
                        .collect();
                    let expected = serde_json::to_string(&events).expect("events JSON");
                    assert_eq!(text, expected, "events JSON");
                }
                slot.cursors[c] = slot.shadow.events().len();
            } else {
                assert_eq!(st, seat_out_of_range());
            }
        }
        7 => {
            let seat = b.u8() % 6;
            let mut o = QeSeatOutcome::default();
            // SAFETY: as above.
            let st = unsafe { qe_game_outcome(h, seat, &raw mut o) };
            if !deep {
                assert_eq!(st == QE_OK, game.is_over() && seat < n, "outcome: {st}");
                return;
            }
            match game.outcome() {
                Some(out) if seat < n => {
                    ok(st, "outcome");
                    assert_eq!(o, QeSeatOutcome::from(out.seat(Seat(seat))));
                }
                _ => assert_ne!(st, QE_OK),
            }
        }
        8 => {
            let mut json: *mut c_char = null_mut();
            // SAFETY: as above.
            let st = unsafe { qe_game_outcome_json(h, &raw mut json) };
            match game.outcome() {
                Some(out) => {
                    ok(st, "outcome_json");
                    // SAFETY: returned by the library.
                    let text = unsafe { take_string(json) };
                    if !deep {
                        return;
                    }
                    let v: serde_json::Value = serde_json::from_str(&text).expect("outcome JSON");
                    for (i, s) in out.seats().iter().enumerate() {
                        assert_eq!(v["seats"][i]["total"], s.total);
                        assert_eq!(v["seats"][i]["winner"], s.winner);
                    }
                }
                None => {
                    assert_eq!(st, qe_ffi::QE_ERR_NOT_OVER);
                    assert!(json.is_null());
                }
            }
        }
        _ => {
            let mut json: *mut c_char = null_mut();
            // SAFETY: as above.
            ok(
                unsafe { qe_game_record_json(h, &raw mut json) },
                "record_json",
            );
            // SAFETY: returned by the library.
            let text = unsafe { take_string(json) };
            if !deep {
                return;
            }
            let record = Record::from_json(&text).expect("the ABI's record reads back");
            let replayed = record.replay().expect("the ABI's record replays");
            assert_eq!(replayed.game(), slot.shadow.game());
            if !matches!(game.phase(), Phase::GameOver) {
                // SAFETY: live handle.
                unsafe { compare(slot) };
            }
        }
    }
}

/// Entry points called with a NULL handle or a NULL out-pointer: `QE_ERR_NULL_POINTER`.
unsafe fn nulls(which: u8, live: Option<*mut QeGame>) {
    let g = if which & 0x80 != 0 {
        live.unwrap_or(null_mut())
    } else {
        null_mut()
    };
    let null_game = g.is_null();
    // With a live game, only the out-pointer is NULL; with a NULL game, both may be.
    // SAFETY (all calls): `g` is NULL or live; NULL out-pointers are what is tested.
    let st = unsafe {
        match which % 16 {
            0 => qe_game_state(g, null_mut()),
            1 => qe_game_to_act(g, null_mut()),
            2 => qe_game_bid_range(g, 0, null_mut()),
            3 => qe_game_legal(g, 0, null_mut()),
            4 => qe_game_seat_info(g, 0, 0, null_mut()),
            5 => qe_game_auction(g, 0, 0, null_mut()),
            6 => qe_game_view_json(g, 0, null_mut()),
            7 => qe_game_events_pending(g, 0, null_mut()),
            8 => qe_game_events(g, 0, null_mut(), 0, null_mut()),
            9 => qe_game_events_json(g, 0, null_mut()),
            10 => qe_game_outcome(g, 0, null_mut()),
            11 => qe_game_outcome_json(g, null_mut()),
            12 => qe_game_record_json(g, null_mut()),
            13 => qe_game_clone(g, null_mut()),
            14 => qe_game_apply_json(g, null()),
            _ => {
                if null_game {
                    let mut out: *mut QeGame = null_mut();
                    let s = qe_game_from_record(null(), null_mut(), &raw mut out);
                    assert!(out.is_null());
                    s
                } else {
                    qe_game_new(3, 0, 0, null_mut())
                }
            }
        }
    };
    assert_eq!(
        st,
        QE_ERR_NULL_POINTER,
        "call {} with NULL (game NULL: {null_game})",
        which % 16
    );
    if null_game {
        // NULL is a valid argument to free (ignored).
        // SAFETY: NULL.
        assert_eq!(unsafe { qe_game_free(null_mut()) }, QE_OK);
        let cmd = QeCommand::default();
        // SAFETY: NULL handle.
        assert_eq!(
            unsafe { qe_game_apply(null_mut(), cmd) },
            QE_ERR_NULL_POINTER
        );
    }
}

/// Entry points called with a freed handle: `QE_ERR_INVALID_HANDLE`, out-pointers untouched.
unsafe fn stale_use(which: u8, h: *mut QeGame) {
    let mut st_out = QeState::default();
    let mut json: *mut c_char = null_mut();
    let mut out: *mut QeGame = null_mut();
    let mut count = 77usize;
    // SAFETY (all calls): `h` is a freed handle, which the ABI detects.
    let st = unsafe {
        match which % 8 {
            0 => qe_game_state(h, &raw mut st_out),
            1 => qe_game_apply(h, QeCommand::default()),
            2 => qe_game_view_json(h, QE_SPECTATOR, &raw mut json),
            3 => qe_game_clone(h, &raw mut out),
            4 => qe_game_events_pending(h, 0, &raw mut count),
            5 => qe_game_record_json(h, &raw mut json),
            6 => qe_game_free(h),
            _ => {
                let c = CString::new("{\"seat\":0,\"bid\":1}").expect("no NUL");
                qe_game_apply_json(h, c.as_ptr())
            }
        }
    };
    assert_eq!(
        st,
        QE_ERR_INVALID_HANDLE,
        "call {} on a freed handle",
        which % 8
    );
    assert!(json.is_null() && out.is_null() && count == 77 && st_out == QeState::default());
}
