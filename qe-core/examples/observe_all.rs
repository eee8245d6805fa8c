//! Plays N random games and writes every seat's observation after every command: a profiling
//! harness for the observation writers (`valgrind --tool=callgrind` counts instructions, whatever
//! the machine's load). Mode `none` plays the same games without observing, to subtract.
//!
//! `cargo run --release -p qe-core --example observe_all -- [GAMES] [PLAYERS] [commodities|base]
//! [none|view|seat|observer]`

use qe_core::encoding::{observe, observe_seat, Observer, OBS_SIZE};
use qe_core::{Game, Rules, Seat};

#[path = "../benches/support/random_play.rs"]
#[allow(dead_code)] // play_out is for the other harnesses
mod random_play;
use random_play::{random_command, Rng};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let players: u8 = args.next().and_then(|s| s.parse().ok()).unwrap_or(4);
    let commodities = args.next().as_deref() == Some("commodities");
    let mode = args.next().unwrap_or_else(|| "observer".to_string());
    assert!(
        matches!(mode.as_str(), "none" | "view" | "seat" | "observer"),
        "mode: none, view, seat or observer"
    );
    let rules = if commodities {
        Rules::commodities(players)
    } else {
        Rules::base(players)
    }
    .expect("3 to 5 players");
    let mut observer = Box::new(Observer::new());
    let mut out = vec![0.0f32; OBS_SIZE];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut observations, mut checksum) = (0u64, 0u32);
    let start = std::time::Instant::now();
    for seed in 0..games {
        let mut game = Game::seeded(rules, seed);
        loop {
            if mode != "none" {
                for s in 0..players {
                    let seat = Seat(s);
                    match mode.as_str() {
                        "view" => observe(&game.view(seat), &mut out),
                        "seat" => observe_seat(&game, seat, &mut out),
                        _ => observer.observe(&game, seat, &mut out),
                    }
                    let out = std::hint::black_box(&mut out);
                    checksum =
                        checksum.wrapping_add(out[OBS_SIZE - 1].to_bits() ^ out[40].to_bits());
                    observations += 1;
                }
            }
            if game.is_over() {
                break;
            }
            game.play(random_command(&game, &mut rng)).expect("legal");
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} games ({players} players{}), mode {mode}: {observations} observations in {secs:.3} s \
         ({:.0} ns each, checksum {checksum})",
        if commodities { ", commodities" } else { "" },
        secs * 1e9 / observations.max(1) as f64
    );
}
