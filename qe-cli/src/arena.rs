//! The statistics of `qe simulate`: per agent, a win rate with its 95% Wilson interval and two
//! ratings with bootstrap intervals.
//!
//! The rating models who wins (Plackett–Luce's first choice, a multinomial logit): every agent has
//! a strength `s`, and the seat of agent `a` wins a game with probability `s_a / Σ s` over the
//! game's seats. A shared win is split among the tied winners (each wins `1/k` of the game); a
//! game without a winner (every seat eliminated, R-SCO-2) says nothing of who wins and is left out.
//! The strengths are fitted by minorization–maximization, with one virtual game of each lineup the
//! tournament played, won equally by all its seats (so an agent that never wins stays finite).
//! With seats rotated, every game has the same agents, so the fitted strengths are in the order
//! of the win rates (over the seats each agent played, a shared win split): an agent that wins
//! more often always rates higher.
//!
//! The order rating, secondary, ranks every pair of seats of every game by the final order
//! (R-SCO-11: seats not eliminated first, then by grand total, then by the least total spent;
//! equal seats tie): a Bradley–Terry model fitted to the pairs, with one virtual draw between
//! every two agents. It rewards finishing ahead without winning, so an agent rarely eliminated
//! but rarely winning can rate above a frequent winner: it does not rank strength.
//!
//! Both are shown on the Elo scale: 400 × log10 of the strength, the agents' mean at 1500. The
//! intervals are the 2.5th and 97.5th percentiles of the ratings refitted on games resampled with
//! replacement, from a generator seeded by the tournament seed.
//!
//! Everything needs a game's finishing pattern only (its [`Ranked`]), so the games are kept as a
//! count of each pattern ([`Finishes`]): memory is bounded by the number of patterns, not of games.

use std::collections::BTreeMap;

use qe_core::{Outcome, PerSeat};

/// The ranks and agents of one game: its finishing pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ranked {
    /// The number of seats.
    pub players: u8,
    /// The agent (index into the tournament's agent list) of each seat.
    pub agent: PerSeat<u8>,
    /// Each seat's rank: how many seats finished strictly ahead of it.
    pub rank: PerSeat<u8>,
    /// Whether the game has winners (the seats of rank 0), not every seat eliminated.
    pub won: bool,
}

impl Ranked {
    /// The ranks of a finished game's seats, with the agent of each seat.
    pub fn of(outcome: &Outcome, agent: PerSeat<u8>) -> Ranked {
        let seats = outcome.seats();
        let key = |i: usize| seats[i].finish_key();
        let mut rank = PerSeat::splat(0u8);
        for (i, r) in rank.in_play_mut(seats.len() as u8).iter_mut().enumerate() {
            *r = (0..seats.len()).filter(|&j| key(j) > key(i)).count() as u8;
        }
        Ranked {
            players: seats.len() as u8,
            agent,
            rank,
            won: seats.iter().any(|s| s.winner),
        }
    }

    /// Each seat in play: its agent (as an index) and its rank.
    fn seats(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        let agents = self.agent.in_play(self.players).iter();
        agents
            .zip(self.rank.in_play(self.players))
            .map(|(&a, &r)| (usize::from(a), r))
    }

    /// The winners' number, if the game has any.
    fn winners(&self) -> Option<usize> {
        let k = self.seats().filter(|&(_, r)| r == 0).count();
        (self.won && k > 0).then_some(k)
    }

    /// Adds this game, `times` over, to the win model's sums: each winner's agent wins `1/k` of
    /// it, `k` the number of winners, and every seat's agent took part in it.
    fn add_win_to(&self, fit: &mut WinData, times: f64) {
        let Some(k) = self.winners() else {
            return;
        };
        let mut seats = vec![0u8; fit.wins.len()];
        for (a, r) in self.seats() {
            if r == 0 {
                fit.wins[a] += times / k as f64;
            }
            seats[a] += 1;
        }
        *fit.games.entry(seats).or_insert(0.0) += times;
    }

    /// Adds this game's pairwise comparisons, `times` over, to `wins` (`wins[a][b]`: a's wins
    /// over b).
    fn add_to(&self, wins: &mut [Vec<f64>], times: f64) {
        let (agent, rank) = (
            self.agent.in_play(self.players),
            self.rank.in_play(self.players),
        );
        for s in 0..agent.len() {
            for t in s + 1..agent.len() {
                let (a, b) = (usize::from(agent[s]), usize::from(agent[t]));
                if a == b {
                    continue;
                }
                match rank[s].cmp(&rank[t]) {
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

/// The 97.5th percentile of Student's t distribution with `df` degrees of freedom (at least 1):
/// from a table to 30, then the Cornish–Fisher expansion in `1/df` (Abramowitz & Stegun 26.7.5),
/// within 0.001 of the exact value.
pub fn t975(df: u64) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df as usize - 1],
        _ => {
            let z: f64 = 1.959_964;
            let v = df as f64;
            let (z3, z5, z7) = (z.powi(3), z.powi(5), z.powi(7));
            z + (z3 + z) / (4.0 * v)
                + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * v * v)
                + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * v * v * v)
        }
    }
}

/// The 95% t interval of the mean of `n` observations `x_i / scale` whose integer numerators sum
/// to `sum`, and their squares to `sum_sq`: `mean ± t975(n − 1) · sd / √n`. `None` below two
/// observations.
pub fn mean_interval(n: u64, sum: u128, sum_sq: u128, scale: f64) -> Option<(f64, f64)> {
    if n < 2 {
        return None;
    }
    let m = u128::from(n);
    // n Σx² − (Σx)², exact: n (n − 1) times the sample variance.
    let spread = (m * sum_sq).saturating_sub(sum * sum) as f64;
    let var = spread / (n as f64 * (n - 1) as f64);
    let mean = sum as f64 / n as f64;
    let half = t975(n - 1) * (var / n as f64).sqrt();
    Some(((mean - half) / scale, (mean + half) / scale))
}

/// One rating on the Elo scale with its interval, per agent.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The fitted rating.
    pub rating: Vec<f64>,
    /// The 2.5th percentile of the bootstrap ratings.
    pub low: Vec<f64>,
    /// The 97.5th percentile of the bootstrap ratings.
    pub high: Vec<f64>,
}

/// The ratings of a tournament's agents.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// Who wins: the headline rating.
    pub wins: Fit,
    /// The finishing order of every pair of seats (Bradley–Terry), secondary.
    pub order: Fit,
    /// How many bootstrap resamples were fitted.
    pub resamples: usize,
}

/// What the win model is fitted to: each agent's (fractional) wins, and the number of games of
/// each lineup (how many seats each agent held), over the games with a winner.
#[derive(Clone, Debug, Default)]
struct WinData {
    wins: Vec<f64>,
    games: BTreeMap<Vec<u8>, f64>,
}

impl WinData {
    fn new(agents: usize) -> WinData {
        WinData {
            wins: vec![0.0; agents],
            games: BTreeMap::new(),
        }
    }
}

/// The strengths on the Elo scale: 400 × log10, mean 1500 (the strengths' geometric mean 1).
fn elo(gamma: &[f64]) -> Vec<f64> {
    let mean_log = gamma.iter().map(|g| g.log10()).sum::<f64>() / gamma.len() as f64;
    gamma
        .iter()
        .map(|g| 1500.0 + 400.0 * (g.log10() - mean_log))
        .collect()
}

/// Fits the win model (P(a seat of agent a wins) = s_a / Σ s over the game's seats) by
/// minorization–maximization, with one virtual game of each lineup of `lineups`, won equally by
/// all its seats, weighted to one game in all; ratings on the Elo scale, mean 1500.
fn fit_wins(data: &WinData, lineups: &[Vec<u8>]) -> Vec<f64> {
    let k = data.wins.len();
    if k < 2 {
        return vec![1500.0; k];
    }
    let mut wins = data.wins.clone();
    let mut games: Vec<(&[u8], f64)> = data.games.iter().map(|(l, &n)| (&l[..], n)).collect();
    let weight = 1.0 / lineups.len().max(1) as f64;
    for lineup in lineups {
        let seats: u8 = lineup.iter().sum();
        for a in 0..k {
            wins[a] += weight * f64::from(lineup[a]) / f64::from(seats);
        }
        games.push((lineup, weight));
    }
    let mut gamma = vec![1.0f64; k];
    for _ in 0..10_000 {
        let mut denom = vec![0.0f64; k];
        for &(lineup, n) in &games {
            let total: f64 = (0..k).map(|a| f64::from(lineup[a]) * gamma[a]).sum();
            for a in 0..k {
                denom[a] += n * f64::from(lineup[a]) / total;
            }
        }
        let mut change: f64 = 0.0;
        let next: Vec<f64> = (0..k)
            .map(|a| {
                if denom[a] > 0.0 {
                    wins[a] / denom[a]
                } else {
                    gamma[a]
                }
            })
            .collect();
        let mean_log = next.iter().map(|g| g.ln()).sum::<f64>() / k as f64;
        let scale = mean_log.exp();
        for a in 0..k {
            let g = next[a] / scale;
            change = change.max((g / gamma[a]).ln().abs());
            gamma[a] = g;
        }
        if change < 1e-12 {
            break;
        }
    }
    elo(&gamma)
}

/// Fits Bradley–Terry strengths to pairwise win counts; ratings on the Elo scale, mean 1500.
fn fit_order(wins: &[Vec<f64>]) -> Vec<f64> {
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
    elo(&gamma)
}

/// Ratings of `agents` agents from the games of `finishes`, with intervals from `resamples`
/// bootstrap resamples drawn from `seed`.
///
/// A resample draws as many games as were played, uniformly with replacement: it draws an index
/// into the games listed by pattern, which is the same distribution as drawing from the games in
/// the order they were played.
pub fn ratings(finishes: &Finishes, agents: usize, resamples: usize, seed: u64) -> Ratings {
    let patterns: Vec<(&Ranked, u64)> = finishes.count.iter().map(|(r, &n)| (r, n)).collect();
    // The lineups played, as seats per agent: the win model's virtual games.
    let mut lineups: Vec<Vec<u8>> = Vec::new();
    for (ranked, _) in &patterns {
        let mut seats = vec![0u8; agents];
        for &a in ranked.agent.in_play(ranked.players) {
            seats[a as usize] += 1;
        }
        if !lineups.contains(&seats) {
            lineups.push(seats);
        }
    }
    let fit = |counts: &mut dyn Iterator<Item = (&Ranked, u64)>| {
        let mut order = vec![vec![0.0f64; agents]; agents];
        let mut wins = WinData::new(agents);
        for (ranked, n) in counts {
            ranked.add_to(&mut order, n as f64);
            ranked.add_win_to(&mut wins, n as f64);
        }
        (fit_wins(&wins, &lineups), fit_order(&order))
    };
    let (win_rating, order_rating) = fit(&mut patterns.iter().copied());
    // The index just past each pattern's games.
    let ends: Vec<u64> = patterns
        .iter()
        .scan(0u64, |end, &(_, n)| {
            *end += n;
            Some(*end)
        })
        .collect();
    let games = finishes.games;
    let mut win_samples: Vec<Vec<f64>> = vec![Vec::with_capacity(resamples); agents];
    let mut order_samples = win_samples.clone();
    let mut state = seed ^ 0xB007_57A9;
    let mut drawn = vec![0u64; patterns.len()];
    for _ in 0..resamples {
        drawn.fill(0);
        for _ in 0..games {
            state = qe_core::mix_seed(state);
            let i = ((u128::from(state) * u128::from(games)) >> 64) as u64;
            drawn[pattern_of(&ends, i)] += 1;
        }
        let (w, o) = fit(&mut patterns.iter().zip(&drawn).map(|(&(r, _), &d)| (r, d)));
        for a in 0..agents {
            win_samples[a].push(w[a]);
            order_samples[a].push(o[a]);
        }
    }
    Ratings {
        wins: interval(win_rating, &mut win_samples),
        order: interval(order_rating, &mut order_samples),
        resamples,
    }
}

/// A rating with the 95% interval of its bootstrap `samples` (none: the rating itself).
fn interval(rating: Vec<f64>, samples: &mut [Vec<f64>]) -> Fit {
    let mut low = Vec::with_capacity(rating.len());
    let mut high = Vec::with_capacity(rating.len());
    for (a, xs) in samples.iter_mut().enumerate() {
        if xs.is_empty() {
            low.push(rating[a]);
            high.push(rating[a]);
        } else {
            xs.sort_by(f64::total_cmp);
            low.push(percentile(xs, 0.025));
            high.push(percentile(xs, 0.975));
        }
    }
    Fit { rating, low, high }
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
            agent: PerSeat::new([agent[0], agent[1], agent[2], agent[3], 0]),
            rank: PerSeat::new([rank[0], rank[1], rank[2], rank[3], 0]),
            won: true,
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
    fn t975_joins_its_table_and_tends_to_the_normal() {
        assert!((t975(1) - 12.706).abs() < 1e-12);
        assert!((t975(31) - 2.0395).abs() < 1e-3, "{}", t975(31));
        assert!((t975(60) - 2.0003).abs() < 1e-3, "{}", t975(60));
        assert!((t975(120) - 1.9799).abs() < 1e-3, "{}", t975(120));
        assert!((t975(1_000_000_000) - 1.959_964).abs() < 1e-6);
        assert!((2..200).all(|df| t975(df) < t975(df - 1)));
    }

    #[test]
    fn mean_interval_is_the_t_interval() {
        // 0, 1, 2, 3 over scale 2: mean 0.75, sd of the x/2 0.6455, half width 3.182 · 0.6455 / 2.
        let (lo, hi) = mean_interval(4, 6, 14, 2.0).unwrap();
        let half = 3.182 * (5.0f64 / 12.0).sqrt() / 2.0;
        assert!((lo - (0.75 - half)).abs() < 1e-12 && (hi - (0.75 + half)).abs() < 1e-12);
        // No spread, no width; one observation, no interval.
        let (lo, hi) = mean_interval(3, 9, 27, 3.0).unwrap();
        assert!((lo - 1.0).abs() < 1e-12 && (hi - 1.0).abs() < 1e-12);
        assert_eq!(mean_interval(1, 5, 25, 1.0), None);
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
        assert!(r.order.rating[0] > r.order.rating[1] && r.order.rating[1] > r.order.rating[2]);
        // 3:1 is about 191 Elo.
        assert!(
            ((r.order.rating[0] - r.order.rating[1]) - 190.8).abs() < 10.0,
            "{r:?}"
        );
        for a in 0..3 {
            assert!(
                r.order.low[a] <= r.order.rating[a] && r.order.rating[a] <= r.order.high[a],
                "{r:?}"
            );
        }
        let mean = r.order.rating.iter().sum::<f64>() / 3.0;
        assert!((mean - 1500.0).abs() < 1e-6);
        // Seeded: the same intervals again.
        assert_eq!(r, ratings(&tally(&games), 3, 100, 7));
    }

    /// The ratings as strengths, `10^((rating - 1500) / 400)`.
    fn strengths(r: &Ratings) -> Vec<f64> {
        r.order
            .rating
            .iter()
            .map(|x| 10f64.powf((x - 1500.0) / 400.0))
            .collect()
    }

    /// Adds `n` two-seat comparisons in which agent `a` finishes ahead of agent `b`.
    fn add_wins(f: &mut Finishes, a: u8, b: u8, n: u32) {
        for _ in 0..n {
            f.add(Ranked {
                players: 2,
                agent: PerSeat::new([a, b, 0, 0, 0]),
                rank: PerSeat::new([0, 1, 0, 0, 0]),
                won: true,
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
        assert!(
            (r.order.rating[0] - r.order.rating[1] - want).abs() < 1e-9,
            "{r:?}"
        );
        assert!(
            (r.order.rating[0] + r.order.rating[1] - 3000.0).abs() < 1e-9,
            "{r:?}"
        );
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
        assert!((r.order.rating.iter().sum::<f64>() / 3.0 - 1500.0).abs() < 1e-9);
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
        assert_eq!(a.order.rating, b.order.rating);
        assert!(
            a.order.low != b.order.low || a.order.high != b.order.high,
            "{a:?} {b:?}"
        );
    }

    #[test]
    fn ties_and_one_agent() {
        let games = vec![game([0, 1, 0, 1], [0, 0, 2, 2]); 10];
        let r = ratings(&tally(&games), 2, 20, 1);
        assert!((r.order.rating[0] - r.order.rating[1]).abs() < 1e-6);
        let one = ratings(&tally(&[game([0, 0, 0, 0], [0, 1, 2, 3])]), 1, 5, 1);
        assert_eq!(one.order.rating, vec![1500.0]);
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
        let spread = r.order.high[0] - r.order.low[0];
        assert!(spread > 5.0 && spread < 60.0, "{r:?}");
        let mid = f64::midpoint(r.order.high[0], r.order.low[0]);
        assert!((mid - r.order.rating[0]).abs() < spread / 4.0, "{r:?}");
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
        let r = Ranked::of(&outcome, PerSeat::new([0, 1, 2, 3, 0]));
        assert_eq!(r.players, 4);
        assert_eq!(r.rank.in_play(4), &[0, 0, 2, 3]);
        // Their comparison is half a win each.
        let mut wins = vec![vec![0.0; 4]; 4];
        r.add_to(&mut wins, 1.0);
        assert_eq!((wins[0][1], wins[1][0]), (0.5, 0.5));
        assert_eq!((wins[0][2], wins[2][0], wins[2][3]), (1.0, 0.0, 1.0));
    }

    // ----- the win model ------------------------------------------------------------------

    /// A game of `n` seats whose lineup is `lineup` rotated by `r`, finishing as `rank`, with
    /// winners (the seats of rank 0) unless `won` is false.
    fn rotated(lineup: &[u8], r: usize, rank: &[u8], won: bool) -> Ranked {
        let n = lineup.len();
        let mut agent = PerSeat::splat(0u8);
        let mut ranks = PerSeat::splat(0u8);
        for (s, (a, k)) in agent
            .in_play_mut(n as u8)
            .iter_mut()
            .zip(ranks.in_play_mut(n as u8))
            .enumerate()
        {
            *a = lineup[(s + r) % n];
            *k = rank[s];
        }
        Ranked {
            players: n as u8,
            agent,
            rank: ranks,
            won,
        }
    }

    /// Per agent: wins (a shared win split among its winners) and seats played.
    fn win_rates(f: &Finishes, agents: usize) -> (Vec<f64>, Vec<f64>) {
        let (mut wins, mut seats) = (vec![0.0; agents], vec![0.0; agents]);
        for (r, &count) in &f.count {
            let k = r.seats().filter(|&(_, x)| x == 0).count() as f64;
            for (a, rank) in r.seats() {
                seats[a] += count as f64;
                if r.won && rank == 0 {
                    wins[a] += count as f64 / k;
                }
            }
        }
        (wins, seats)
    }

    #[test]
    fn the_win_model_solves_its_likelihood_equations() {
        // Three agents, lineups [0, 1, 2] and [0, 0, 1, 2]: each agent's wins, virtual ones
        // included, equal its expected wins.
        let mut f = Finishes::default();
        let mut state = 5u64;
        for i in 0..300u64 {
            state = qe_core::mix_seed(state);
            let lineup: &[u8] = if i % 3 == 0 {
                &[0, 0, 1, 2]
            } else {
                &[0, 1, 2]
            };
            let winner = (state % lineup.len() as u64) as usize;
            let rank: Vec<u8> = (0..lineup.len()).map(|s| u8::from(s != winner)).collect();
            f.add(rotated(lineup, i as usize, &rank, state % 7 != 0));
        }
        let r = ratings(&f, 3, 0, 1);
        let g: Vec<f64> = r
            .wins
            .rating
            .iter()
            .map(|x| 10f64.powf((x - 1500.0) / 400.0))
            .collect();
        let lineups: [&[u8]; 2] = [&[1, 1, 1], &[2, 1, 1]];
        for a in 0..3 {
            let (mut won, mut expected) = (0.0, 0.0);
            for (ranked, &n) in &f.count {
                let seats = |b: u8| {
                    ranked
                        .agent
                        .in_play(ranked.players)
                        .iter()
                        .filter(|&&x| x == b)
                        .count() as f64
                };
                if let Some(k) = ranked.winners() {
                    let total: f64 = (0..3u8).map(|b| seats(b) * g[b as usize]).sum();
                    expected += n as f64 * seats(a as u8) * g[a] / total;
                    won += n as f64
                        * ranked
                            .seats()
                            .filter(|&(x, rank)| rank == 0 && x == a)
                            .count() as f64
                        / k as f64;
                }
            }
            for l in lineups {
                let total: f64 = (0..3).map(|b| f64::from(l[b]) * g[b]).sum();
                let all: f64 = l.iter().map(|&x| f64::from(x)).sum();
                won += 0.5 * f64::from(l[a]) / all;
                expected += 0.5 * f64::from(l[a]) * g[a] / total;
            }
            assert!(
                (won - expected).abs() < 1e-9 * won.max(1.0),
                "agent {a}: {won} {expected}"
            );
        }
    }

    /// Over random tournaments (a rotated lineup, random finishing orders with ties and games
    /// without a winner), the rating is in the order of the win rates; so whenever two agents'
    /// win-rate intervals are disjoint, their ratings are in the same order.
    #[test]
    fn the_rating_ranks_agents_as_their_win_rates_do() {
        let mut state = 17u64;
        let mut next = |m: u64| {
            state = qe_core::mix_seed(state);
            state % m
        };
        let mut disjoint = 0;
        for _ in 0..60 {
            let n = 3 + next(3) as usize;
            let agents = 2 + next(n as u64 - 1) as usize;
            // Every agent has an entry; the rest repeat random agents.
            let lineup: Vec<u8> = (0..n)
                .map(|s| {
                    if s < agents {
                        s as u8
                    } else {
                        next(agents as u64) as u8
                    }
                })
                .collect();
            // Each lineup entry has its own chance of finishing on top.
            let skill: Vec<u64> = (0..n).map(|_| 1 + next(12)).collect();
            let games = 20 + next(400);
            let mut f = Finishes::default();
            for i in 0..games {
                let r = (i as usize) % n;
                let entry = |s: usize| (s + r) % n;
                let level: Vec<u64> = (0..n).map(|s| next(3 * skill[entry(s)]) / 4).collect();
                let rank: Vec<u8> = (0..n)
                    .map(|s| (0..n).filter(|&t| level[t] > level[s]).count() as u8)
                    .collect();
                f.add(rotated(&lineup, r, &rank, next(10) != 0));
            }
            let rated = ratings(&f, agents, 0, 1);
            let (wins, seats) = win_rates(&f, agents);
            for a in 0..agents {
                for b in 0..agents {
                    let (pa, pb) = (wins[a] / seats[a], wins[b] / seats[b]);
                    let (ra, rb) = (rated.wins.rating[a], rated.wins.rating[b]);
                    if pa > pb + 1e-12 {
                        assert!(ra > rb, "{lineup:?}: {a} wins {pa}, {b} {pb}: {rated:?}");
                    }
                    let (a_low, _) = wilson(wins[a], seats[a]);
                    let (_, b_high) = wilson(wins[b], seats[b]);
                    if a_low > b_high {
                        disjoint += 1;
                        assert!(ra > rb, "{lineup:?}: {rated:?}");
                    }
                }
            }
        }
        assert!(
            disjoint > 20,
            "the property was tried on {disjoint} pairs only"
        );
    }

    /// README's case: an agent rarely eliminated but rarely winning (`value`) finishes ahead of
    /// a frequent winner that often spends itself out, so the order rating puts it above; the
    /// rating, which models who wins, puts it below.
    #[test]
    fn a_rare_winner_that_finishes_well_rates_below_a_frequent_winner() {
        // Agents: 0 the frequent winner, 1 the value-like one, 2 two weak seats.
        let lineup = [0u8, 1, 2, 2];
        let mut f = Finishes::default();
        for i in 0..1000usize {
            let r = i % 4;
            // The ranks of agents 0, 1 and the two 2s.
            let by_agent: [u8; 4] = match i % 10 {
                0..=4 => [0, 1, 2, 3], // the winner wins, value second
                5..=8 => [3, 1, 0, 2], // a weak seat wins, the winner spent itself out
                _ => [1, 0, 2, 3],     // value wins
            };
            let mut rank = [0u8; 4];
            let mut weak = 2;
            for s in 0..4 {
                let a = lineup[(s + r) % 4];
                rank[s] = match a {
                    0 => by_agent[0],
                    1 => by_agent[1],
                    _ => {
                        weak += 1;
                        by_agent[weak - 1]
                    }
                };
            }
            f.add(rotated(&lineup, r, &rank, true));
        }
        let r = ratings(&f, 3, 50, 3);
        let (wins, seats) = win_rates(&f, 3);
        assert!(
            wins[0] / seats[0] > 0.45 && wins[1] / seats[1] < 0.15,
            "{wins:?}"
        );
        assert!(
            r.order.rating[1] > r.order.rating[0],
            "the order rating: {r:?}"
        );
        assert!(r.wins.rating[0] > r.wins.rating[1], "the rating: {r:?}");
        assert!(r.wins.low[0] > r.wins.high[1], "{r:?}");
    }

    #[test]
    fn a_shared_win_is_split_and_a_game_without_winner_says_nothing() {
        // Agents 0 and 1 share every win: equal ratings. Games without a winner change nothing.
        let mut f = Finishes::default();
        for _ in 0..40 {
            f.add(rotated(&[0, 1, 2], 0, &[0, 0, 2], true));
        }
        let shared = ratings(&f, 3, 0, 1).wins;
        assert!(
            (shared.rating[0] - shared.rating[1]).abs() < 1e-9,
            "{shared:?}"
        );
        assert!(shared.rating[2] < shared.rating[0] - 200.0, "{shared:?}");
        for _ in 0..40 {
            f.add(rotated(&[0, 1, 2], 0, &[2, 1, 0], false));
        }
        let more = ratings(&f, 3, 0, 1).wins;
        for a in 0..3 {
            assert!(
                (more.rating[a] - shared.rating[a]).abs() < 1e-9,
                "{more:?} {shared:?}"
            );
        }
    }
}
