//! The statistics of `qe simulate`: per agent, a win rate with its 95% Wilson interval and a
//! rating fitted from finishing orders with a bootstrap interval.
//!
//! Ratings: every game ranks its seats (R-SCO-11's order: seats not eliminated first, then by
//! grand total, then by the least total spent; eliminated seats after them in the same order;
//! equal seats tie). Every pair of seats held by different agents is one comparison: a win for the
//! better-ranked, half a win each for a tie. A Bradley–Terry model is fitted to the comparisons by
//! minorization–maximization, with one virtual draw between every two agents (so a perfect record
//! stays finite), and shown on the Elo scale: 400 × log10 of the strength, the agents' mean at 1500.
//! The interval is the 2.5th and 97.5th percentiles of the ratings refitted on games resampled with
//! replacement, from a generator seeded by the tournament seed.
//!
//! Both need a game's finishing pattern only (its [`Ranked`]), so the games are kept as a count of
//! each pattern ([`Finishes`]): memory is bounded by the number of patterns, not of games.

use std::collections::BTreeMap;

use qe_core::{Outcome, MAX_SEATS};

/// The ranks and agents of one game: its finishing pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ranked {
    /// The number of seats.
    pub players: u8,
    /// The agent (index into the tournament's agent list) of each seat.
    pub agent: [u8; MAX_SEATS],
    /// Each seat's rank: how many seats finished strictly ahead of it.
    pub rank: [u8; MAX_SEATS],
}

impl Ranked {
    /// The ranks of a finished game's seats, with the agent of each seat.
    pub fn of(outcome: &Outcome, agent: [u8; MAX_SEATS]) -> Ranked {
        let seats = outcome.seats();
        let key = |i: usize| seats[i].finish_key();
        let mut rank = [0u8; MAX_SEATS];
        for (i, r) in rank.iter_mut().enumerate().take(seats.len()) {
            *r = (0..seats.len()).filter(|&j| key(j) > key(i)).count() as u8;
        }
        Ranked {
            players: seats.len() as u8,
            agent,
            rank,
        }
    }

    /// Adds this game's pairwise comparisons, `times` over, to `wins` (`wins[a][b]`: a's wins
    /// over b).
    fn add_to(&self, wins: &mut [Vec<f64>], times: f64) {
        let n = self.players as usize;
        for s in 0..n {
            for t in s + 1..n {
                let (a, b) = (self.agent[s] as usize, self.agent[t] as usize);
                if a == b {
                    continue;
                }
                match self.rank[s].cmp(&self.rank[t]) {
                    std::cmp::Ordering::Less => wins[a][b] += times,
                    std::cmp::Ordering::Greater => wins[b][a] += times,
                    std::cmp::Ordering::Equal => {
                        wins[a][b] += 0.5 * times;
                        wins[b][a] += 0.5 * times;
                    }
                }
            }
        }
    }
}

/// A tournament's games, as the number of games of each finishing pattern.
///
/// A tournament rotates one lineup through the seats, so it has at most as many agent
/// assignments as seats, and a game of at most five seats has at most 541 orders (ties
/// included): at most 2,705 patterns, however many games are added.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Finishes {
    count: BTreeMap<Ranked, u64>,
    games: u64,
}

impl Finishes {
    /// Counts one more game finishing as `ranked`.
    pub fn add(&mut self, ranked: Ranked) {
        *self.count.entry(ranked).or_insert(0) += 1;
        self.games += 1;
    }

    /// Adds the games of `other`.
    pub fn merge(&mut self, other: Finishes) {
        for (ranked, n) in other.count {
            *self.count.entry(ranked).or_insert(0) += n;
        }
        self.games += other.games;
    }

    /// How many games were counted.
    #[cfg(test)]
    pub fn games(&self) -> u64 {
        self.games
    }

    /// How many distinct finishing patterns they have.
    #[cfg(test)]
    pub fn patterns(&self) -> usize {
        self.count.len()
    }
}

/// The 95% Wilson score interval of a rate of `wins` in `n` trials.
pub fn wilson(wins: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 0.0);
    }
    let z = 1.959_964;
    let p = (wins / n).clamp(0.0, 1.0);
    let z2 = z * z;
    let center = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((center - half).max(0.0), (center + half).min(1.0))
}

/// Ratings on the Elo scale with their intervals, per agent.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// The fitted rating.
    pub rating: Vec<f64>,
    /// The 2.5th percentile of the bootstrap ratings.
    pub low: Vec<f64>,
    /// The 97.5th percentile of the bootstrap ratings.
    pub high: Vec<f64>,
    /// How many bootstrap resamples were fitted.
    pub resamples: usize,
}

/// Fits Bradley–Terry strengths to pairwise win counts; ratings on the Elo scale, mean 1500.
fn fit(wins: &[Vec<f64>]) -> Vec<f64> {
    let k = wins.len();
    if k < 2 {
        return vec![1500.0; k];
    }
    // One virtual draw between every two agents.
    let w: Vec<Vec<f64>> = (0..k)
        .map(|a| {
            (0..k)
                .map(|b| if a == b { 0.0 } else { wins[a][b] + 0.5 })
                .collect()
        })
        .collect();
    let total: Vec<f64> = w.iter().map(|row| row.iter().sum()).collect();
    let mut gamma = vec![1.0f64; k];
    for _ in 0..10_000 {
        let mut next = vec![0.0f64; k];
        for a in 0..k {
            let mut denom = 0.0;
            for b in 0..k {
                if a != b {
                    denom += (w[a][b] + w[b][a]) / (gamma[a] + gamma[b]);
                }
            }
            next[a] = total[a] / denom;
        }
        // Normalize: geometric mean 1.
        let mean_log = next.iter().map(|g| g.ln()).sum::<f64>() / k as f64;
        let scale = mean_log.exp();
        let mut change: f64 = 0.0;
        for a in 0..k {
            next[a] /= scale;
            change = change.max((next[a] / gamma[a]).ln().abs());
        }
        gamma = next;
        if change < 1e-12 {
            break;
        }
    }
    gamma.iter().map(|g| 1500.0 + 400.0 * g.log10()).collect()
}

/// Ratings of `agents` agents from the games of `finishes`, with intervals from `resamples`
/// bootstrap resamples drawn from `seed`.
///
/// A resample draws as many games as were played, uniformly with replacement: it draws an index
/// into the games listed by pattern, which is the same distribution as drawing from the games in
/// the order they were played.
pub fn ratings(finishes: &Finishes, agents: usize, resamples: usize, seed: u64) -> Ratings {
    let zero = || vec![vec![0.0f64; agents]; agents];
    let patterns: Vec<(&Ranked, u64)> = finishes.count.iter().map(|(r, &n)| (r, n)).collect();
    let wins_of = |counts: &mut dyn Iterator<Item = (&Ranked, u64)>| {
        let mut wins = zero();
        for (ranked, n) in counts {
            ranked.add_to(&mut wins, n as f64);
        }
        wins
    };
    let rating = fit(&wins_of(&mut patterns.iter().copied()));
    // The index just past each pattern's games.
    let ends: Vec<u64> = patterns
        .iter()
        .scan(0u64, |end, &(_, n)| {
            *end += n;
            Some(*end)
        })
        .collect();
    let games = finishes.games;
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(resamples); agents];
    let mut state = seed ^ 0xB007_57A9;
    let mut drawn = vec![0u64; patterns.len()];
    for _ in 0..resamples {
        drawn.fill(0);
        for _ in 0..games {
            state = qe_core::mix_seed(state);
            let i = ((u128::from(state) * u128::from(games)) >> 64) as u64;
            drawn[pattern_of(&ends, i)] += 1;
        }
        let w = wins_of(&mut patterns.iter().zip(&drawn).map(|(&(r, _), &d)| (r, d)));
        for (a, r) in fit(&w).into_iter().enumerate() {
            samples[a].push(r);
        }
    }
    let mut low = Vec::with_capacity(agents);
    let mut high = Vec::with_capacity(agents);
    for (a, xs) in samples.iter_mut().enumerate() {
        if resamples == 0 {
            low.push(rating[a]);
            high.push(rating[a]);
        } else {
            xs.sort_by(f64::total_cmp);
            low.push(percentile(xs, 0.025));
            high.push(percentile(xs, 0.975));
        }
    }
    Ratings {
        rating,
        low,
        high,
        resamples,
    }
}

/// The pattern of game `i` when the games are listed by pattern, `ends[p]` the index just past
/// pattern `p`'s games.
fn pattern_of(ends: &[u64], i: u64) -> usize {
    ends.partition_point(|&end| end <= i)
}

/// The `q` quantile of the sorted `xs`: the entry nearest to `q` of the way from the first to
/// the last; NaN for none.
fn percentile(xs: &[f64], q: f64) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    xs[((xs.len() - 1) as f64 * q).round() as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(agent: [u8; 4], rank: [u8; 4]) -> Ranked {
        Ranked {
            players: 4,
            agent: [agent[0], agent[1], agent[2], agent[3], 0],
            rank: [rank[0], rank[1], rank[2], rank[3], 0],
        }
    }

    fn tally(games: &[Ranked]) -> Finishes {
        let mut f = Finishes::default();
        for &g in games {
            f.add(g);
        }
        f
    }

    #[test]
    fn wilson_brackets_the_rate() {
        let (lo, hi) = wilson(50.0, 100.0);
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3);
        assert_eq!(wilson(0.0, 0.0), (0.0, 0.0));
        let (lo, hi) = wilson(0.0, 10.0);
        assert!(lo == 0.0 && hi > 0.2);
    }

    #[test]
    fn the_better_agent_rates_higher_and_intervals_hold_the_fit() {
        // Agent 0 beats agent 1 three games out of four, always ahead of 2.
        let mut games = Vec::new();
        for i in 0..400 {
            let r = if i % 4 == 0 {
                [1, 0, 2, 3]
            } else {
                [0, 1, 2, 3]
            };
            games.push(game([0, 1, 2, 2], r));
        }
        let r = ratings(&tally(&games), 3, 100, 7);
        assert!(r.rating[0] > r.rating[1] && r.rating[1] > r.rating[2]);
        // 3:1 is about 191 Elo.
        assert!(((r.rating[0] - r.rating[1]) - 190.8).abs() < 10.0, "{r:?}");
        for a in 0..3 {
            assert!(r.low[a] <= r.rating[a] && r.rating[a] <= r.high[a], "{r:?}");
        }
        let mean = r.rating.iter().sum::<f64>() / 3.0;
        assert!((mean - 1500.0).abs() < 1e-6);
        // Seeded: the same intervals again.
        assert_eq!(r, ratings(&tally(&games), 3, 100, 7));
    }

    /// The ratings as strengths, `10^((rating - 1500) / 400)`.
    fn strengths(r: &Ratings) -> Vec<f64> {
        r.rating
            .iter()
            .map(|x| 10f64.powf((x - 1500.0) / 400.0))
            .collect()
    }

    /// Adds `n` two-seat comparisons in which agent `a` finishes ahead of agent `b`.
    fn add_wins(f: &mut Finishes, a: u8, b: u8, n: u32) {
        for _ in 0..n {
            f.add(Ranked {
                players: 2,
                agent: [a, b, 0, 0, 0],
                rank: [0, 1, 0, 0, 0],
            });
        }
    }

    #[test]
    fn two_agents_rate_by_their_wins_with_one_virtual_draw() {
        // 3 wins to 1, plus half a win each: a strength ratio of 3.5 / 1.5.
        let mut f = Finishes::default();
        add_wins(&mut f, 0, 1, 3);
        add_wins(&mut f, 1, 0, 1);
        let r = ratings(&f, 2, 0, 1);
        let want = 400.0 * (3.5f64 / 1.5).log10();
        assert!((r.rating[0] - r.rating[1] - want).abs() < 1e-9, "{r:?}");
        assert!((r.rating[0] + r.rating[1] - 3000.0).abs() < 1e-9, "{r:?}");
    }

    #[test]
    fn the_fit_solves_the_likelihood_equations() {
        // Three agents, pairwise records 30:10, 5:15 and 20:20.
        let mut f = Finishes::default();
        for (a, b, n) in [
            (0, 1, 30),
            (1, 0, 10),
            (0, 2, 5),
            (2, 0, 15),
            (1, 2, 20),
            (2, 1, 20),
        ] {
            add_wins(&mut f, a, b, n);
        }
        let r = ratings(&f, 3, 0, 1);
        let g = strengths(&r);
        // Maximum likelihood with one virtual draw (half a win each way) between every two
        // agents: each agent's wins equal its expected wins.
        let wins = [[0.0, 30.0, 5.0], [10.0, 0.0, 20.0], [15.0, 20.0, 0.0]];
        let w = |a: usize, b: usize| wins[a][b] + 0.5;
        for a in 0..3 {
            let (mut won, mut expected) = (0.0, 0.0);
            for b in (0..3).filter(|&b| b != a) {
                won += w(a, b);
                expected += (w(a, b) + w(b, a)) * g[a] / (g[a] + g[b]);
            }
            assert!((won - expected).abs() < 1e-9 * won, "agent {a}: {r:?}");
        }
        assert!((r.rating.iter().sum::<f64>() / 3.0 - 1500.0).abs() < 1e-9);
    }

    #[test]
    fn a_game_index_falls_in_its_patterns_range() {
        // Patterns of 3, 1 and 6 games: indices 0..3, 3..4 and 4..10.
        let ends = [3, 4, 10];
        let mut count = [0; 3];
        for i in 0..10 {
            count[pattern_of(&ends, i)] += 1;
        }
        assert_eq!(count, [3, 1, 6]);
        assert_eq!(pattern_of(&ends, 3), 1);
    }

    #[test]
    fn percentiles_take_the_nearest_entry() {
        let five = [1.0, 2.0, 3.0, 4.0, 5.0];
        // 4 × 0.975 = 3.9 and 4 × 0.025 = 0.1.
        let bits = |q: f64, xs: &[f64]| percentile(xs, q).to_bits();
        assert_eq!(
            (bits(0.025, &five), bits(0.975, &five)),
            (1f64.to_bits(), 5f64.to_bits())
        );
        // 9 × 0.65 = 5.85: the entry at 6, not 5.
        let ten: Vec<f64> = (0..10).map(f64::from).collect();
        assert_eq!(bits(0.65, &ten), 6f64.to_bits());
        assert!(percentile(&[], 0.5).is_nan());
    }

    #[test]
    fn the_intervals_are_drawn_from_the_seed() {
        let mut f = Finishes::default();
        add_wins(&mut f, 0, 1, 30);
        add_wins(&mut f, 1, 0, 20);
        add_wins(&mut f, 2, 1, 25);
        add_wins(&mut f, 1, 2, 25);
        let a = ratings(&f, 3, 100, 7);
        assert_eq!(a, ratings(&f, 3, 100, 7));
        let b = ratings(&f, 3, 100, 8);
        assert_eq!(a.rating, b.rating);
        assert!(a.low != b.low || a.high != b.high, "{a:?} {b:?}");
    }

    #[test]
    fn ties_and_one_agent() {
        let games = vec![game([0, 1, 0, 1], [0, 0, 2, 2]); 10];
        let r = ratings(&tally(&games), 2, 20, 1);
        assert!((r.rating[0] - r.rating[1]).abs() < 1e-6);
        let one = ratings(&tally(&[game([0, 0, 0, 0], [0, 1, 2, 3])]), 1, 5, 1);
        assert_eq!(one.rating, vec![1500.0]);
    }

    /// Every weak order of `n` seats, as ranks (how many seats finish strictly ahead).
    fn orders(n: usize) -> Vec<[u8; 4]> {
        let mut out = Vec::new();
        for code in 0..n.pow(n as u32) {
            let mut level = [0usize; 4];
            let mut c = code;
            for l in level.iter_mut().take(n) {
                *l = c % n;
                c /= n;
            }
            let mut rank = [0u8; 4];
            for s in 0..n {
                rank[s] = (0..n).filter(|&t| level[t] < level[s]).count() as u8;
            }
            if !out.contains(&rank) {
                out.push(rank);
            }
        }
        out
    }

    #[test]
    fn the_tally_is_bounded_by_the_patterns_not_the_games() {
        // A rotated lineup of 4 seats: 4 agent assignments, 75 orders.
        let lineup = [0u8, 1, 2, 2];
        let orders = orders(4);
        assert_eq!(orders.len(), 75);
        let mut f = Finishes::default();
        let mut state = 1u64;
        for i in 0..200_000u64 {
            state = qe_core::mix_seed(state);
            let r = (i % 4) as usize;
            let agent = [0, 1, 2, 3].map(|s| lineup[(s + r) % 4]);
            f.add(game(agent, orders[(state % 75) as usize]));
        }
        assert_eq!(f.games(), 200_000);
        assert!(f.patterns() <= 4 * 75, "{} patterns", f.patterns());
        assert!(f.patterns() > 200, "{} patterns", f.patterns());
    }

    #[test]
    fn merged_tallies_rate_as_one_in_any_order() {
        let games: Vec<Ranked> = (0..300u64)
            .map(|i| {
                let r = orders(4)[(qe_core::mix_seed(i) % 75) as usize];
                game([0, 1, 2, 3], r)
            })
            .collect();
        let whole = tally(&games);
        let mut parts = tally(&games[200..]);
        parts.merge(tally(&games[..200]));
        assert_eq!(parts, whole);
        let mut reversed = games.clone();
        reversed.reverse();
        assert_eq!(tally(&reversed), whole);
        assert_eq!(ratings(&parts, 4, 50, 3), ratings(&whole, 4, 50, 3));
    }

    #[test]
    fn a_resample_draws_each_pattern_as_often_as_it_was_played() {
        // 3 of 4 games one way, 1 of 4 the other: over many resamples, agent 0's bootstrap
        // ratings centre on the fit, and the interval holds it.
        let mut f = Finishes::default();
        for i in 0..1000 {
            let r = if i % 4 == 0 {
                [1, 0, 2, 3]
            } else {
                [0, 1, 2, 3]
            };
            f.add(game([0, 1, 2, 2], r));
        }
        assert_eq!(f.patterns(), 2);
        let r = ratings(&f, 3, 400, 11);
        let spread = r.high[0] - r.low[0];
        assert!(spread > 5.0 && spread < 60.0, "{r:?}");
        let mid = f64::midpoint(r.high[0], r.low[0]);
        assert!((mid - r.rating[0]).abs() < spread / 4.0, "{r:?}");
    }

    #[test]
    fn seats_tied_in_the_final_order_share_a_rank() {
        use qe_core::scoring::{score, Holdings};
        use qe_core::{Industry, Nation, Rules};
        // Seats 0 and 1: nothing, spent 5 each (tied for the win, R-SCO-11); seat 2 spent 9,
        // seat 3 spent 20 (eliminated, R-SCO-2).
        let seat = |nation, industry, spent| Holdings {
            nation: Some(nation),
            industry: Some(industry),
            spent,
            ..Holdings::default()
        };
        let outcome = score(
            &Rules::base(4).unwrap(),
            &[
                seat(Nation::US, Industry::AGR, 5),
                seat(Nation::EU, Industry::HOU, 5),
                seat(Nation::CN, Industry::FIN, 9),
                seat(Nation::JP, Industry::MAN, 20),
            ],
            false,
        );
        assert!(outcome.seat(qe_core::Seat(0)).winner && outcome.seat(qe_core::Seat(1)).winner);
        let r = Ranked::of(&outcome, [0, 1, 2, 3, 0]);
        assert_eq!(r.players, 4);
        assert_eq!(&r.rank[..4], &[0, 0, 2, 3]);
        // Their comparison is half a win each.
        let mut wins = vec![vec![0.0; 4]; 4];
        r.add_to(&mut wins, 1.0);
        assert_eq!((wins[0][1], wins[1][0]), (0.5, 0.5));
        assert_eq!((wins[0][2], wins[2][0], wins[2][3]), (1.0, 0.0, 1.0));
    }
}
