//! Whole games played by the core alone, for the npm package's test to play again through the
//! WebAssembly binding and compare: one JSON line per game with its players, expansions, seed,
//! the bot of each seat (seeded with its seat number), and the core's outcome and record.
//!
//! `cargo run -p qe-wasm --example core_outcomes`

use qe_core::bots::NamedBot;
use qe_core::{Expansion, Expansions, Match, Rules, Seat};

/// The bot of each seat: every baseline and a search level in each game.
const LINEUP: [&str; 5] = ["value", "search:easy", "random", "miser", "value"];

fn main() {
    for players in 3..=5u8 {
        for commodities in [false, true] {
            for seed in [1u64, 2, 3] {
                let expansions = if commodities {
                    Expansions::of(Expansion::Commodities)
                } else {
                    Expansions::NONE
                };
                let rules = Rules::with_expansions(players, expansions).expect("3 to 5 players");
                let mut m = Match::seeded(rules, seed);
                let names = &LINEUP[..usize::from(players)];
                let mut bots: Vec<NamedBot> = (0u64..)
                    .zip(names)
                    .map(|(s, name)| NamedBot::new(name, s).expect("a known bot"))
                    .collect();
                while !m.game().is_over() {
                    let seat: Seat = m.game().to_act().first().expect("someone acts");
                    let c = bots[seat.index()]
                        .decide(&m, seat, true)
                        .expect("the seat acts");
                    m.play(c).expect("a bot's command is legal");
                }
                // The outcome written by serde_json's writer, which writes any i128 total exactly.
                let head = serde_json::json!({
                    "players": players,
                    "expansions": expansions.names().collect::<Vec<_>>(),
                    "seed": seed,
                    "bots": names,
                    "record": m.record().expect("a seeded game has a record").to_json(),
                });
                let outcome = m.game().outcome().expect("the game is over");
                let outcome = serde_json::to_string(&outcome).expect("an outcome is JSON");
                let head = head.to_string();
                let line = format!("{},\"outcome\":{outcome}}}", &head[..head.len() - 1]);
                println!("{line}");
            }
        }
    }
}
