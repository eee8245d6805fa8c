//! Plays one seeded game between baseline bots and prints the outcome.
//!
//! `cargo run --release -p qe-core --example play -- [SEED] [PLAYERS] [commodities]`

use qe_core::bots::{Bot, MiserBot, RandomBot};
use qe_core::{Game, Rules, Seat, SetupError};

const USAGE: &str = "usage: play [SEED] [PLAYERS] [commodities]   (defaults: 42 4)";

/// Exits with the usage line and what was wrong (exit code 2); a refused set-up is given with its
/// rule ID first, as the other front ends print it.
fn usage(problem: &str) -> ! {
    eprintln!("error: {problem}\n{USAGE}");
    std::process::exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() > 3 {
        usage(&format!("at most 3 arguments, got {}", args.len()));
    }
    let seed: u64 = args.first().map_or(42, |s| {
        s.parse().unwrap_or_else(|_| {
            usage(&format!(
                "SEED is a whole number from 0 to {}, got `{s}`",
                u64::MAX
            ))
        })
    });
    // A count the rules refuse (7, 300, -1) gets their message (R-SET-1) below.
    let players: i128 = args.get(1).map_or(4, |s| {
        s.parse()
            .unwrap_or_else(|_| usage(&format!("PLAYERS is a number of players, got `{s}`")))
    });
    let refused = |e: SetupError| -> ! { usage(&format!("{}: {e}", e.rule())) };
    let players =
        u8::try_from(players).unwrap_or_else(|_| refused(SetupError::Players { players }));
    let commodities = match args.get(2).map(String::as_str) {
        None => false,
        Some("commodities") => true,
        Some(other) => usage(&format!(
            "the third argument is `commodities`, got `{other}`"
        )),
    };
    let rules = match if commodities {
        Rules::commodities(players)
    } else {
        Rules::base(players)
    } {
        Ok(r) => r,
        Err(e) => refused(e),
    };
    let mut game = Game::seeded(rules, seed);
    let mut bots: Vec<Box<dyn Bot>> = (0..players)
        .map(|s| -> Box<dyn Bot> {
            if s == players - 1 {
                Box::new(MiserBot)
            } else {
                Box::new(RandomBot::new(
                    seed.wrapping_mul(31).wrapping_add(u64::from(s)),
                ))
            }
        })
        .collect();
    let mut commands = 0;
    while !game.is_over() {
        let seat = game.to_act().first().expect("someone must act");
        let command = bots[seat.index()]
            .act(&game.view(seat))
            .expect("bots always act");
        game.apply(command).expect("bots play legal commands");
        commands += 1;
    }
    let outcome = game.outcome().expect("the game is over");
    println!(
        "QE, {players} players{}, seed {seed}: {commands} commands",
        if commodities { " with Commodities" } else { "" }
    );
    println!("seat nation industry            spent elim win  comp zero nat mono div comm  sub bonus total");
    for s in outcome.seats() {
        println!(
            "{:>4} {:>6} {:>8} {:>16} {:>4} {:>3} {:>5} {:>4} {:>3} {:>4} {:>3} {:>4} {:>4} {:>5} {:>5}",
            s.seat,
            s.nation.map_or("?", |n| n.name()),
            s.industry.map_or("?", |i| i.name()),
            s.spent,
            if s.eliminated { "yes" } else { "" },
            if s.winner { "yes" } else { "" },
            s.companies,
            s.zero_bids,
            s.nationalization,
            s.monopolization,
            s.diversification,
            s.commodities,
            s.subtotal,
            s.least_spent_bonus,
            s.total
        );
    }
    let winners: Vec<String> = outcome.winners().map(|Seat(s)| s.to_string()).collect();
    println!(
        "winner(s): {}",
        if winners.is_empty() {
            "none".into()
        } else {
            winners.join(", ")
        }
    );
}
