//! Prints what one seat can prove about every seat's total spent (the deduction aid), next to the
//! truth, part-way through a seeded game between value bots.
//!
//! `cargo run -p qe-core --example deduce -- [SEED] [PLAYERS] [TURN] [VIEWER] [commodities]`

use qe_core::bots::{by_name, BoxedBot};
use qe_core::{Match, Rules, Seat};

fn main() {
    let mut args = std::env::args().skip(1);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(7);
    let players: u8 = args.next().and_then(|s| s.parse().ok()).unwrap_or(4);
    let stop: u8 = args.next().and_then(|s| s.parse().ok()).unwrap_or(8);
    let viewer = Seat(args.next().and_then(|s| s.parse().ok()).unwrap_or(1));
    let commodities = args.next().as_deref() == Some("commodities");
    let rules = if commodities {
        Rules::commodities(players)
    } else {
        Rules::base(players)
    }
    .expect("3 to 5 players");
    let mut m = Match::seeded(rules, seed);
    let mut bots: Vec<BoxedBot> = (0..players)
        .map(|s| by_name("value", seed * 10 + u64::from(s)).expect("the value bot"))
        .collect();
    while !m.game().is_over() && m.game().turn() < stop {
        let seat = m.game().to_act().first().expect("someone acts");
        let command = bots[seat.index()]
            .act(&m.game().view(seat))
            .expect("bots act");
        m.apply(command).expect("bots play legal commands");
    }
    let d = m.deduce(viewer);
    println!(
        "seed {seed}, {players} players{}, after {} turns: what seat {} proves",
        if commodities { " with Commodities" } else { "" },
        m.game().turn(),
        viewer.0
    );
    println!("seat  true spent      lower                 upper  exact  tiles won  prices known");
    for s in 0..players {
        let b = d.seats[Seat(s)];
        let upper = if b.upper >= i128::from(u64::MAX) {
            "unbounded".to_string()
        } else {
            b.upper.to_string()
        };
        println!(
            "{s:>4} {:>11} {:>10} {:>21} {:>6} {:>10} {:>13}",
            m.game().spent(Seat(s)),
            b.lower,
            upper,
            if b.exact() { "yes" } else { "" },
            b.won.count_ones(),
            b.known_prices.count_ones()
        );
    }
}
