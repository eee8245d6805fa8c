//! Soundness of the deduction aid: over random games of every variant, at every step, every seat's
//! bounds contain every seat's true total spent, and at game end they are exact.
//!
//! The number of games is `QE_DEDUCTION_GAMES` (default 1500, the CI run); the full check is
//! `QE_DEDUCTION_GAMES=100000 cargo test --release -p qe-core --test deduction`.

use qe_core::{AssetKind, Command, Game, Match, Phase, Rules, Seat};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        let z = qe_core::mix_seed(self.0);
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn command(game: &Game, rng: &mut Rng) -> Command {
    if game.players() == 5 && rng.below(6) == 0 {
        let peeker = Seat(rng.below(5) as u8);
        let legal = game.legal(peeker);
        if legal.peek != 0 {
            let turn = (0..16u8)
                .rev()
                .find(|t| legal.peek & (1 << t) != 0)
                .unwrap();
            return Command::Peek { seat: peeker, turn };
        }
    }
    let acting = game.to_act();
    let seat = acting
        .iter()
        .nth(rng.below(acting.len() as u64) as usize)
        .unwrap();
    let legal = game.legal(seat);
    if let Some(range) = legal.bid {
        let mut amount = match rng.below(10) {
            0 => u64::MAX - rng.below(3),
            1..=3 => rng.below(3),
            _ => rng.below(40),
        };
        amount = amount.max(range.min);
        if Some(amount) == range.forbidden {
            amount = if amount == u64::MAX {
                amount - 1
            } else {
                amount + 1
            };
        }
        return Command::Bid { seat, amount };
    }
    let piles: Vec<AssetKind> = legal.take.iter().chain(legal.discard.iter()).collect();
    let kind = piles[rng.below(piles.len() as u64) as usize];
    if matches!(game.phase(), Phase::DiscardAsset { .. }) {
        Command::DiscardAsset { seat, kind }
    } else {
        Command::TakeAsset { seat, kind }
    }
}

fn check(m: &Match, exact_expected: bool) -> Result<(), String> {
    let n = m.game().players();
    for viewer in 0..n {
        let d = m.deduce(Seat(viewer));
        let from_view = m.game().view(Seat(viewer)).deduce();
        for s in 0..n {
            let truth = m.game().spent(Seat(s));
            for (what, b) in [
                ("events", d.seats[Seat(s)]),
                ("view", from_view.seats[Seat(s)]),
            ] {
                if !b.contains(truth) {
                    return Err(format!(
                        "seat {viewer} ({what}) bounds seat {s} to [{}, {}] but it spent {truth}",
                        b.lower, b.upper
                    ));
                }
                if exact_expected && !b.exact() {
                    return Err(format!(
                        "seat {viewer} ({what}): seat {s} not exact at game end"
                    ));
                }
            }
            // The event-based bounds are at least as tight as the view-only ones.
            let (e, v) = (d.seats[Seat(s)], from_view.seats[Seat(s)]);
            if e.lower < v.lower || e.upper > v.upper {
                return Err(format!(
                    "seat {viewer}: own bids loosened the bounds of seat {s}"
                ));
            }
        }
        if !d.seats[Seat(viewer)].exact() {
            return Err(format!("seat {viewer} does not know its own total"));
        }
        // `won` holds the turns each seat won; `known_prices` those whose price the viewer's
        // view shows, and that price is the winner's own.
        let seen = m.game().view(Seat(viewer));
        for s in 0..n {
            let own = m.game().view(Seat(s));
            let b = d.seats[Seat(s)];
            for (t, a) in own.auctions().iter().enumerate() {
                let bit = 1u16 << t;
                let won = a.awarded && a.winner == Some(Seat(s));
                if (b.won & bit != 0) != won {
                    return Err(format!("seat {viewer}: seat {s} won turn {t}: {won}"));
                }
                let shown = seen.auctions().get(t).and_then(|v| v.price);
                let known = b.known_prices & bit != 0;
                if known != (won && shown.is_some()) || (known && shown != a.price) {
                    return Err(format!(
                        "seat {viewer}: price of seat {s}'s turn {t} known {known}, shown {shown:?}, \
                         paid {:?}",
                        a.price
                    ));
                }
            }
        }
    }
    Ok(())
}

#[test]
fn bounds_always_contain_the_true_totals() {
    let games: u64 = std::env::var("QE_DEDUCTION_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1500);
    let mut checked = 0u64;
    for g in 0..games {
        let players = 3 + (g % 3) as u8;
        let commodities = g % 2 == 0;
        let rules = if commodities {
            Rules::commodities(players).unwrap()
        } else {
            Rules::base(players).unwrap()
        };
        let mut m = Match::seeded(rules, g);
        let mut rng = Rng(g ^ 0xABCD);
        while !m.game().is_over() {
            let c = command(m.game(), &mut rng);
            m.apply(c).unwrap();
            // Check after every awarded auction (and the last step) to keep the run fast.
            if matches!(m.game().phase(), Phase::OpeningBid { .. } | Phase::GameOver) {
                if let Err(e) = check(&m, m.game().is_over()) {
                    panic!("game {g} ({players} players, commodities {commodities}): {e}");
                }
                checked += 1;
            }
        }
    }
    eprintln!("deduction: {games} games, {checked} positions checked, all sound");
}

/// An example table: what seat 2 knows mid-game.
#[test]
fn bounds_are_tight_where_the_rules_give_facts() {
    let mut m = Match::seeded(Rules::base(4).unwrap(), 3);
    // Turn 0: seat 0 opens 5; seat 1 wins with a hidden 9; seat 2 bid 7 and lost.
    for (s, a) in [(0, 5), (1, 9), (2, 7), (3, 0)] {
        m.apply(Command::Bid {
            seat: Seat(s),
            amount: a,
        })
        .unwrap();
    }
    let d = m.deduce(Seat(2));
    assert_eq!(d.seats[Seat(1)].lower, 8); // beat seat 2's 7 (and the opening 5)
    assert_eq!(d.seats[Seat(1)].upper, u64::MAX as i128);
    assert_eq!(d.seats[Seat(2)].lower, 0);
    assert!(d.seats[Seat(2)].exact());
    // From the view alone, only the opening bid bounds it.
    assert_eq!(m.game().view(Seat(2)).deduce().seats[Seat(1)].lower, 6);
    // The auctioneer knows.
    assert!(m.deduce(Seat(0)).seats[Seat(1)].exact());
}
