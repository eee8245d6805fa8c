//! Two search configurations head to head, two seats each in 4-player base games, seats rotated
//! (`A,B,A,B`, game `i` shifted by `i`, as `qe simulate` rotates), for trying configurations
//! that have no preset name. Prints each side's share of the wins with its 95% Wilson interval.
//!
//! `cargo run --release -p qe-core --example search_duel -- GAMES SEED A B [THREADS]`, where a
//! configuration is
//! `BUDGET,CANDIDATES,PROBE_WORLDS,PLAYOUTS_PER_WORLD,MIXED,SHARP,RIVAL_SEARCH,RIVAL_WORLDS,MODEL_SHARE,MIN_MIXED_ROUNDS`
//! (MIXED and SHARP 0 or 1; the fields `common::search_config` reads), a bot name
//! (`search:mixed`), a level name (`easy`, `medium`, `hard`) or `value`.

mod common;

use common::{search_config, wilson};
use qe_core::bots::{decide, BoxedBot, SearchBot, ValueBot};
use qe_core::{Manifest, Match, Rules, Seat};

fn bot(spec: &str, seed: u64) -> BoxedBot {
    match search_config(spec) {
        Some(c) => Box::new(SearchBot::with_config(c, seed, Manifest::default())),
        None => Box::new(ValueBot::new(seed)),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = args[0].parse().unwrap();
    let seed: u64 = args[1].parse().unwrap();
    let specs = [args[2].clone(), args[3].clone()];
    let threads: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1);
    let rules = Rules::base(4).unwrap();
    let wins: Vec<[f64; 2]> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let specs = specs.clone();
                scope.spawn(move || {
                    let mut w = [0.0; 2];
                    let mut g = t;
                    while g < games {
                        let mut m = Match::seeded(rules, qe_core::mix_seed(seed ^ g));
                        // Seat s plays entry (s + g) mod 4 of A,B,A,B.
                        let side = |s: u64| ((s + g) % 4 % 2) as usize;
                        let mut bots: Vec<BoxedBot> = (0..4)
                            .map(|s| bot(&specs[side(s)], qe_core::mix_seed(seed ^ g) ^ s))
                            .collect();
                        while !m.game().is_over() {
                            let s = m.game().to_act().first().unwrap();
                            let c = decide(&mut *bots[s.index()], &m, s, true).unwrap();
                            m.apply(c).unwrap();
                        }
                        let o = m.game().outcome().unwrap();
                        let k = o.winners().count().max(1) as f64;
                        for s in 0..4u8 {
                            if o.seat(Seat(s)).winner {
                                w[side(u64::from(s))] += 1.0 / k;
                            }
                        }
                        g += threads;
                    }
                    w
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let seats = 2.0 * games as f64;
    for (i, spec) in specs.iter().enumerate() {
        let w: f64 = wins.iter().map(|x| x[i]).sum();
        let (lo, hi) = wilson(w, seats);
        println!(
            "{spec}: {:.1}% of its {seats} seats ({:.1}–{:.1}%), {games} games, seed {seed}",
            100.0 * w / seats,
            100.0 * lo,
            100.0 * hi
        );
    }
}
