//! Engine benchmarks (divan): full random games, `Game` clone, building a `SeatView`.
//!
//! `cargo bench -p qe-core` — the measured numbers are in PERF.md.

use divan::{black_box, Bencher};
use qe_core::{Game, Rules, Seat};

#[path = "support/random_play.rs"]
mod random_play;
use random_play::{play_out, play_out_by_command, random_command, Rng};

fn main() {
    println!("size_of::<Game>() = {} bytes", std::mem::size_of::<Game>());
    divan::main();
}

/// Plays one full game with random legal commands and returns the winner count, so nothing is
/// optimised away.
#[inline]
fn random_game(rules: Rules, seed: u64, rng: &mut Rng) -> usize {
    let mut game = Game::seeded(rules, seed);
    play_out(&mut game, rng);
    game.outcome().map_or(0, |o| o.winners().count())
}

/// The rules of `players` seats, with or without Commodities.
fn rules_of(players: u8, commodities: bool) -> Rules {
    if commodities {
        Rules::commodities(players).unwrap()
    } else {
        Rules::base(players).unwrap()
    }
}

#[divan::bench(args = [(4, false), (5, true), (3, true)])]
fn full_random_game(bencher: Bencher, (players, commodities): (u8, bool)) {
    let rules = rules_of(players, commodities);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut seed = 0;
    bencher.bench_local(|| {
        seed += 1;
        random_game(black_box(rules), seed, &mut rng)
    });
}

/// [`full_random_game`] with the bids played a command at a time ([`Game::play`]) instead of a
/// bidding step at once ([`Game::play_bids`]): the same games.
#[divan::bench(args = [(4, false), (5, true), (3, true)])]
fn full_random_game_by_command(bencher: Bencher, (players, commodities): (u8, bool)) {
    let rules = rules_of(players, commodities);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut seed = 0;
    bencher.bench_local(|| {
        seed += 1;
        let mut game = Game::seeded(black_box(rules), seed);
        play_out_by_command(&mut game, &mut rng);
        game.outcome().map_or(0, |o| o.winners().count())
    });
}

#[divan::bench]
fn game_clone(bencher: Bencher) {
    let game = mid_game();
    // One copy into a local that the optimiser must keep as a copy of its own (`&mut`: it may be
    // written). Returning the value instead would add a second copy into divan's output slot.
    bencher.bench_local(|| {
        let mut copy: Game = *black_box(&game);
        black_box(&mut copy);
    });
}

#[divan::bench]
fn game_clone_returned(bencher: Bencher) {
    let game = mid_game();
    bencher.bench_local(|| black_box(*black_box(&game)));
}

#[divan::bench]
fn seat_view(bencher: Bencher) {
    let game = mid_game();
    bencher.bench_local(|| black_box(black_box(&game).view(Seat(1))));
}

#[divan::bench]
fn observe(bencher: Bencher) {
    let view = mid_game().view(Seat(1));
    let mut out = vec![0.0f32; qe_core::encoding::OBS_SIZE];
    bencher.bench_local(|| {
        qe_core::encoding::observe(black_box(&view), black_box(&mut out));
    });
}

#[divan::bench]
fn observe_seat(bencher: Bencher) {
    let game = mid_game();
    let mut out = vec![0.0f32; qe_core::encoding::OBS_SIZE];
    bencher.bench_local(|| {
        qe_core::encoding::observe_seat(black_box(&game), Seat(1), black_box(&mut out));
    });
}

#[divan::bench]
fn outcome(bencher: Bencher) {
    let mut game = Game::seeded(Rules::commodities(5).unwrap(), 3);
    let mut rng = Rng(7);
    while !game.is_over() {
        game.play(random_command(&game, &mut rng)).unwrap();
    }
    bencher.bench_local(|| black_box(black_box(&game).outcome()));
}

#[divan::bench]
fn seeded_setup(bencher: Bencher) {
    let rules = Rules::commodities(4).unwrap();
    let mut seed = 0;
    bencher.bench_local(|| {
        seed += 1;
        black_box(Game::seeded(black_box(rules), seed))
    });
}

/// A whole random 4-player game with the observation of every seat that must act written before
/// each command, as a learning loop does: by `observe_seat`, or by one `Observer` for the game.
#[divan::bench(args = ["observe_seat", "observer"])]
fn observed_game(bencher: Bencher, how: &str) {
    let rules = Rules::base(4).unwrap();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut out = vec![0.0f32; qe_core::encoding::OBS_SIZE];
    let mut observer = Box::new(qe_core::encoding::Observer::new());
    let mut seed = 0;
    bencher.bench_local(|| {
        seed += 1;
        let mut game = Game::seeded(rules, seed);
        while !game.is_over() {
            for seat in game.to_act().iter() {
                if how == "observer" {
                    observer.observe(&game, seat, &mut out);
                } else {
                    qe_core::encoding::observe_seat(&game, seat, &mut out);
                }
                black_box(&mut out);
            }
            game.play(random_command(&game, &mut rng)).unwrap();
        }
    });
}

/// A 4-player commodities game eight turns in.
fn mid_game() -> Game {
    let mut game = Game::seeded(Rules::commodities(4).unwrap(), 11);
    let mut rng = Rng(3);
    while game.turn() < 8 {
        game.play(random_command(&game, &mut rng)).unwrap();
    }
    game
}
