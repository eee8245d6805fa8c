//! Helpers shared by the ABI tests.
#![allow(dead_code, unsafe_code, clippy::borrow_as_ptr)]

use std::ffi::{c_char, CStr, CString};
use std::ptr;

use qe_ffi::*;

/// Game cells are pooled process-wide and a freed cell goes to the next new game, so a test that
/// calls functions on a freed handle must not run while another test of the same binary creates
/// games: it could get that cell, and the freed handle would then act on its game (a documented
/// limit of the pool). That test holds the pool exclusively; the others share it.
static POOL: std::sync::RwLock<()> = std::sync::RwLock::new(());

/// Held by a test that creates games (any number at once).
pub fn pool_shared() -> std::sync::RwLockReadGuard<'static, ()> {
    POOL.read()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Held by a test that uses a freed handle (alone).
pub fn pool_exclusive() -> std::sync::RwLockWriteGuard<'static, ()> {
    POOL.write()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

pub fn new_game(players: u8, commodities: bool, seed: u64) -> *mut QeGame {
    let mut g = ptr::null_mut();
    let st = unsafe { qe_game_new(players, u8::from(commodities), seed, &mut g) };
    assert_eq!(st, QE_OK, "{}", last_message());
    assert!(!g.is_null());
    g
}

pub fn last_message() -> String {
    let mut len = 0usize;
    assert_eq!(
        unsafe { qe_last_error_message(ptr::null_mut(), 0, &mut len) },
        QE_OK
    );
    let mut buf = vec![0 as c_char; len + 1];
    assert_eq!(
        unsafe { qe_last_error_message(buf.as_mut_ptr(), buf.len(), ptr::null_mut()) },
        QE_OK
    );
    unsafe { CStr::from_ptr(buf.as_ptr()) }
        .to_str()
        .unwrap()
        .to_owned()
}

/// The rule ID of this thread's last error (`qe_last_error_rule`).
pub fn last_rule() -> String {
    let mut buf = [0x7f as c_char; 16];
    let mut len = usize::MAX;
    assert_eq!(
        unsafe { qe_last_error_rule(buf.as_mut_ptr(), buf.len(), &mut len) },
        QE_OK
    );
    let rule = unsafe { CStr::from_ptr(buf.as_ptr()) }
        .to_str()
        .unwrap()
        .to_owned();
    assert_eq!(rule.len(), len);
    rule
}

/// The name `qe_name` gives to `index` of `kind` (`QE_NAME_*`).
pub fn name_of(kind: u32, index: u32) -> String {
    let mut buf = [0 as c_char; 32];
    let mut len = 0usize;
    let st = unsafe { qe_name(kind, index, buf.as_mut_ptr(), buf.len(), &mut len) };
    assert_eq!(st, QE_OK, "qe_name({kind}, {index}): {}", last_message());
    unsafe { CStr::from_ptr(buf.as_ptr()) }
        .to_str()
        .unwrap()
        .to_owned()
}

/// Takes ownership of a string from the library.
pub fn take(s: *mut c_char) -> String {
    assert!(!s.is_null());
    let out = unsafe { CStr::from_ptr(s) }.to_str().unwrap().to_owned();
    assert_eq!(unsafe { qe_string_free(s) }, QE_OK);
    out
}

pub fn record(g: *const QeGame) -> String {
    let mut s = ptr::null_mut();
    assert_eq!(unsafe { qe_game_record_json(g, &mut s) }, QE_OK);
    take(s)
}

pub fn view(g: *const QeGame, viewer: u8) -> String {
    let mut s = ptr::null_mut();
    assert_eq!(unsafe { qe_game_view_json(g, viewer, &mut s) }, QE_OK);
    take(s)
}

pub fn state(g: *const QeGame) -> QeState {
    let mut s = QeState::default();
    assert_eq!(unsafe { qe_game_state(g, &mut s) }, QE_OK);
    s
}

pub fn legal(g: *const QeGame, seat: u8) -> QeLegal {
    let mut l = QeLegal::default();
    assert_eq!(unsafe { qe_game_legal(g, seat, &mut l) }, QE_OK);
    l
}

pub fn from_record(json: &str) -> (QeStatus, usize, *mut QeGame) {
    let c = CString::new(json).unwrap();
    let mut idx = 0usize;
    let mut g = ptr::null_mut();
    let st = unsafe { qe_game_from_record(c.as_ptr(), &mut idx, &mut g) };
    (st, idx, g)
}

pub fn apply_json(g: *mut QeGame, json: &str) -> QeStatus {
    let c = CString::new(json).unwrap();
    unsafe { qe_game_apply_json(g, c.as_ptr()) }
}

pub fn bid(seat: u8, amount: u64) -> QeCommand {
    QeCommand {
        kind: QE_COMMAND_BID,
        seat,
        amount,
        ..QeCommand::default()
    }
}

pub fn free(g: *mut QeGame) {
    assert_eq!(unsafe { qe_game_free(g) }, QE_OK);
}

/// A small deterministic generator for the test policies.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
}

/// The command a simple policy picks for `seat` from its legal moves (bids mostly small, with ties).
pub fn policy(l: &QeLegal, seat: u8, rng: &mut Lcg) -> Option<QeCommand> {
    if l.bid.can_bid == 1 {
        let mut amount = l.bid.min + rng.next() % 9;
        if l.bid.has_forbidden == 1 && amount == l.bid.forbidden {
            amount += 1;
        }
        return Some(bid(seat, amount));
    }
    for (mask, kind) in [
        (l.take, QE_COMMAND_TAKE_ASSET),
        (l.discard, QE_COMMAND_DISCARD_ASSET),
    ] {
        if mask != 0 {
            return Some(QeCommand {
                kind,
                seat,
                pile: mask.trailing_zeros() as u8,
                ..QeCommand::default()
            });
        }
    }
    None
}

/// The status of the rules' error named `name` (`QE_ERR_<name>` in the header), from qe-core's
/// table, where the rules' codes are declared.
#[allow(dead_code)]
pub fn code(name: &str) -> QeStatus {
    qe_core::ERROR_CODES
        .iter()
        .find(|e| e.name == name)
        .unwrap_or_else(|| panic!("no error code named {name}"))
        .code
}
