//! Plays N full random games as fast as possible and prints games/s: a profiling harness
//! (`valgrind --tool=callgrind` counts instructions, whatever the machine's load).
//!
//! `cargo run --release -p qe-core --example playouts -- [GAMES] [PLAYERS] [commodities|base] [views|obs|steps|commands]`

use qe_core::{Game, Rules, Seat};

#[path = "../benches/support/random_play.rs"]
mod random_play;
use random_play::{play_out, play_out_by_command, random_command, Rng};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let players: u8 = args.next().and_then(|s| s.parse().ok()).unwrap_or(4);
    let commodities = args.next().as_deref() == Some("commodities");
    // "views": also build the acting seat's view before every command, as a bot would; "obs": and
    // write its observation (qe_core::encoding), as a learning agent would; "steps": play a step at
    // a time and after each step write every acting seat's observation (with an `Observer`) and
    // action mask, as the Python binding's `step_observe` does; "commands": play the bids a
    // command at a time instead of a bidding step at once (the same games).
    let mode = args.next();
    let steps = mode.as_deref() == Some("steps");
    let commands = mode.as_deref() == Some("commands");
    let space = qe_core::encoding::ActionSpace::new(qe_core::encoding::BidLadder::default(), false);
    let mut mask = vec![0i8; space.size()];
    let mut observer = Box::new(qe_core::encoding::Observer::new());
    let views = matches!(mode.as_deref(), Some("views" | "obs"));
    let obs = mode.as_deref() == Some("obs");
    let mut buffer = vec![0.0f32; qe_core::encoding::OBS_SIZE];
    let mut checksum = 0u64;
    let rules = if commodities {
        Rules::commodities(players)
    } else {
        Rules::base(players)
    }
    .expect("3 to 5 players");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut winners = 0usize;
    let start = std::time::Instant::now();
    for seed in 0..games {
        let mut game = Game::seeded(rules, seed);
        if steps {
            step_out(
                &mut game,
                &mut rng,
                &mut observer,
                &space,
                &mut buffer,
                &mut mask,
            );
            // The last observation written, whole: it is not all zero.
            checksum = buffer
                .iter()
                .fold(checksum, |c, x| c.wrapping_add(x.to_bits().into()));
        } else if commands {
            play_out_by_command(&mut game, &mut rng);
        } else if !views {
            play_out(&mut game, &mut rng);
        }
        while !game.is_over() {
            let seat = game.to_act().first().unwrap_or(Seat(0));
            if views {
                let view = game.view(seat);
                checksum = checksum.wrapping_add(u64::from(view.deck_remaining));
                if obs {
                    qe_core::encoding::observe(&view, &mut buffer);
                    checksum = checksum.wrapping_add(buffer[7].to_bits().into());
                }
            }
            let command = random_command(&game, &mut rng);
            game.play(command).expect("legal");
        }
        winners += game.outcome().map_or(0, |o| o.winners().count());
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} games ({players} players{}{}) in {secs:.3} s: {:.0} games/s ({winners} winners, {checksum})",
        if commodities { ", commodities" } else { "" },
        if obs {
            ", a view and an observation per command"
        } else if views {
            ", a view per command"
        } else if steps {
            ", observations and masks per step"
        } else if commands {
            ", a command per bid"
        } else {
            ""
        },
        games as f64 / secs
    );
}

/// Plays `game` to its end a step at a time (every acting seat's command), writing each acting
/// seat's observation and mask after every step.
fn step_out(
    game: &mut Game,
    rng: &mut Rng,
    observer: &mut qe_core::encoding::Observer,
    space: &qe_core::encoding::ActionSpace,
    buffer: &mut [f32],
    mask: &mut [i8],
) {
    while !game.is_over() {
        for _ in game.to_act().iter() {
            let command = random_command(game, rng);
            game.play(command).expect("legal");
        }
        for seat in game.to_act().iter() {
            observer.observe(game, seat, buffer);
            space.mask_with(&game.legal(seat), mask, 1, 0);
            std::hint::black_box(&mut *buffer);
        }
    }
}
