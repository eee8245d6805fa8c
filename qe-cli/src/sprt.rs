//! The sequential test of `qe simulate --duplicate --sprt ELO0,ELO1`: is the first listed agent
//! stronger than the field by ELO1 rather than ELO0?
//!
//! **What is compared.** The tested agent is the lineup's first entry (every seat it holds); the
//! field is every other seat, taken as one opponent whose seats are equally strong. The Elo model
//! is the one of the arena's rating (Plackett–Luce's winner): an agent `d` Elo above the field
//! has strength `10^(d/400)` against the field's 1 at each seat, so with `k` of the `n` seats its
//! expected share of a game's win is
//!
//! ```text
//! E(d) = k·10^(d/400) / (k·10^(d/400) + n − k)
//! ```
//!
//! (two seats, one each: the chess Elo curve `1 / (1 + 10^(−d/400))`; `d = 0`: the fair share
//! `k/n`). A win shared by `j` seats counts `1/j` to each; a game without a winner (every seat
//! eliminated) counts as a win shared by every seat, `k/n` to the tested agent.
//!
//! **One observation per duplicate set.** The games of a set share their deal, so they are not
//! independent; the sets are. A set's score is the tested agent's share of the set's wins (its
//! wins over the set's games, 0 to 1), and its expectation is `E(d)`.
//!
//! **The test.** H0: the expected set score is `E(ELO0)`; H1: it is `E(ELO1)`. The distribution of
//! a set's score is otherwise unknown, so the log-likelihood ratio is the generalized one used by
//! chess-engine testing (fishtest's GSPRT): for each hypothesis, the distribution closest to the
//! observed one (maximum likelihood over every distribution on the observed values) whose mean is
//! the hypothesis's, and the LLR the log of their likelihoods' ratio. The maximum-likelihood
//! distribution with mean `s` reweights the empirical one: `p_i = p̂_i / (1 + λ (x_i − s))`, `λ`
//! the root of `Σ p̂_i (x_i − s) / (1 + λ (x_i − s)) = 0`; the LLR of `m` sets is
//! `m · Σ p̂_i [ln(1 + λ0 (x_i − s0)) − ln(1 + λ1 (x_i − s1))]`. So that a mean is always within
//! reach, the scores 0 and 1 get a pseudo-count of 0.001 each. The test stops when the LLR leaves
//! `(ln(β/(1−α)), ln((1−β)/α))` (Wald's bounds): below, H0 is accepted; above, H1.

use std::collections::BTreeMap;

/// The pseudo-count given to the extreme set scores 0 and 1.
const PSEUDO_COUNT: f64 = 1e-3;

/// The expected share of a game's win of an agent `elo` above the field, holding `seats` of the
/// `players` seats (every field seat equally strong; the module's Elo model).
pub fn expected_score(elo: f64, seats: u32, players: u32) -> f64 {
    let k = f64::from(seats);
    let rest = f64::from(players - seats);
    let s = 10f64.powf(elo / 400.0);
    k * s / (k * s + rest)
}

/// The Elo difference whose expected score ([`expected_score`]) is `score`; infinite at 0 and 1.
pub fn elo_of_score(score: f64, seats: u32, players: u32) -> f64 {
    let k = f64::from(seats);
    let rest = f64::from(players - seats);
    400.0 * (score * rest / (k * (1.0 - score))).log10()
}

/// The root `λ` of `Σ p_i (x_i − s) / (1 + λ (x_i − s)) = 0` over the `λ` that keep every
/// `1 + λ (x_i − s)` positive; `pdf` holds `(x_i, p_i)`, with some `x_i` below `s` and some above.
fn lambda(pdf: &[(f64, f64)], s: f64) -> f64 {
    let low_x = pdf.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let high_x = pdf.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
    // The sum falls from +∞ to −∞ over (−1/(high_x − s), 1/(s − low_x)): bisect.
    let mut lo = -1.0 / (high_x - s);
    let mut hi = 1.0 / (s - low_x);
    let f = |l: f64| -> f64 {
        pdf.iter()
            .map(|&(x, p)| p * (x - s) / (1.0 + l * (x - s)))
            .sum()
    };
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The generalized log-likelihood ratio of mean `s1` against mean `s0` of `n` observations whose
/// empirical distribution is `pdf` (`(value, probability)` pairs, the probabilities summing to 1,
/// values spanning both means): `n · Σ p̂ ln(p̂₁ / p̂₀)`, `p̂ₛ` the maximum-likelihood distribution
/// on the same values with mean `s`.
pub fn llr(pdf: &[(f64, f64)], n: f64, s0: f64, s1: f64) -> f64 {
    let l0 = lambda(pdf, s0);
    let l1 = lambda(pdf, s1);
    n * pdf
        .iter()
        .map(|&(x, p)| p * ((1.0 + l0 * (x - s0)).ln() - (1.0 + l1 * (x - s1)).ln()))
        .sum::<f64>()
}

/// What a finished test decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The LLR fell below the lower bound: the agent is not `ELO1` above the field.
    H0,
    /// The LLR rose above the upper bound: the agent is not only `ELO0` above the field.
    H1,
}

/// A sequential probability ratio test in progress: its hypotheses, error rates and the set
/// scores seen so far.
#[derive(Clone, Debug)]
pub struct Sprt {
    /// H0's Elo difference.
    pub elo0: f64,
    /// H1's Elo difference.
    pub elo1: f64,
    /// The largest probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The largest probability of accepting H0 when H1 holds.
    pub beta: f64,
    /// The tested agent's seats in a game, and the game's seats.
    seats: u32,
    players: u32,
    /// The observed set scores, as numerators over `scale`, with their counts.
    counts: BTreeMap<u64, u64>,
    scale: u64,
    sets: u64,
    sum: u64,
}

impl Sprt {
    /// A test of `elo0` against `elo1` (`elo0 < elo1`) with error rates `alpha` and `beta`, of an
    /// agent holding `seats` of `players` seats, whose set scores are given as numerators over
    /// `scale`.
    pub fn new(
        (elo0, elo1): (f64, f64),
        (alpha, beta): (f64, f64),
        (seats, players): (u32, u32),
        scale: u64,
    ) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            seats,
            players,
            counts: BTreeMap::new(),
            scale,
            sets: 0,
            sum: 0,
        }
    }

    /// Counts one more set, of score `numerator / scale`.
    pub fn add(&mut self, numerator: u64) {
        *self.counts.entry(numerator).or_insert(0) += 1;
        self.sets += 1;
        self.sum += numerator;
    }

    /// The sets counted.
    pub fn sets(&self) -> u64 {
        self.sets
    }

    /// H0's and H1's expected set scores.
    pub fn expected(&self) -> (f64, f64) {
        (
            expected_score(self.elo0, self.seats, self.players),
            expected_score(self.elo1, self.seats, self.players),
        )
    }

    /// The mean set score so far (0 before any set).
    pub fn mean(&self) -> f64 {
        if self.sets == 0 {
            0.0
        } else {
            self.sum as f64 / (self.sets as f64 * self.scale as f64)
        }
    }

    /// The Elo difference of the mean set score (infinite at 0 or 1).
    pub fn elo_estimate(&self) -> f64 {
        elo_of_score(self.mean(), self.seats, self.players)
    }

    /// Wald's bounds on the LLR: `(ln(β/(1−α)), ln((1−β)/α))`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 over the sets so far (0 before any set).
    pub fn llr(&self) -> f64 {
        if self.sets == 0 {
            return 0.0;
        }
        let mut weights: BTreeMap<u64, f64> = BTreeMap::new();
        for (&x, &n) in &self.counts {
            weights.insert(x, n as f64);
        }
        for end in [0, self.scale] {
            *weights.entry(end).or_insert(0.0) += PSEUDO_COUNT;
        }
        let total: f64 = weights.values().sum();
        let pdf: Vec<(f64, f64)> = weights
            .iter()
            .map(|(&x, &w)| (x as f64 / self.scale as f64, w / total))
            .collect();
        let (s0, s1) = self.expected();
        llr(&pdf, self.sets as f64, s0, s1)
    }

    /// The decision, once the LLR has left the bounds.
    #[cfg(test)]
    pub fn decision(&self) -> Option<Decision> {
        self.decide(self.llr())
    }

    /// The decision at LLR `llr` (this test's [`Sprt::llr`], computed once).
    pub fn decide(&self, llr: f64) -> Option<Decision> {
        let (lower, upper) = self.bounds();
        if llr <= lower {
            Some(Decision::H0)
        } else if llr >= upper {
            Some(Decision::H1)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::{RngCore, SeedableRng};

    #[test]
    fn expected_score_is_the_elo_curve_and_the_fair_share_at_zero() {
        for (seats, players) in [(1, 3), (1, 4), (2, 5), (1, 5)] {
            let fair = f64::from(seats) / f64::from(players);
            assert!((expected_score(0.0, seats, players) - fair).abs() < 1e-12);
            for elo in [-200.0, -35.0, 20.0, 400.0] {
                let s = expected_score(elo, seats, players);
                assert!((elo_of_score(s, seats, players) - elo).abs() < 1e-9);
                assert_eq!(s > fair, elo > 0.0);
            }
        }
        // Two seats, one each: the chess Elo curve; 400 Elo is 10 to 1.
        assert!((expected_score(400.0, 1, 2) - 10.0 / 11.0).abs() < 1e-12);
        assert!((expected_score(-100.0, 1, 2) - 1.0 / (1.0 + 10f64.powf(0.25))).abs() < 1e-12);
    }

    #[test]
    fn the_bounds_are_walds() {
        let t = Sprt::new((0.0, 10.0), (0.05, 0.05), (1, 4), 4);
        let (lower, upper) = t.bounds();
        assert!((upper - 19f64.ln()).abs() < 1e-12);
        assert!((lower + 19f64.ln()).abs() < 1e-12);
        assert!(t.llr().abs() < 1e-12);
        assert_eq!(t.decision(), None);
    }

    /// The maximum-likelihood distribution with mean `s` has mean `s`, and equals the empirical
    /// one when that already has mean `s` (λ = 0).
    #[test]
    fn the_constrained_fit_has_the_wanted_mean() {
        let pdf = [(0.0, 0.5), (0.25, 0.2), (0.5, 0.1), (1.0, 0.2)];
        let mean: f64 = pdf.iter().map(|(x, p)| x * p).sum();
        assert!(lambda(&pdf, mean).abs() < 1e-9);
        for s in [0.1, 0.3, 0.6, 0.9] {
            let l = lambda(&pdf, s);
            let q: Vec<(f64, f64)> = pdf
                .iter()
                .map(|&(x, p)| (x, p / (1.0 + l * (x - s))))
                .collect();
            let total: f64 = q.iter().map(|p| p.1).sum();
            let m: f64 = q.iter().map(|(x, p)| x * p).sum();
            assert!((total - 1.0).abs() < 1e-9, "{s}: total {total}");
            assert!((m - s).abs() < 1e-9, "{s}: mean {m}");
        }
    }

    /// Close hypotheses: the LLR is the normal approximation's
    /// `n (s1 − s0)(2 x̄ − s0 − s1) / (2 σ²)`; it changes sign with the hypotheses, and is 0 when
    /// the mean is halfway between them.
    #[test]
    fn the_llr_agrees_with_the_normal_approximation() {
        let pdf = [
            (0.0, 0.45),
            (0.25, 0.25),
            (0.5, 0.15),
            (0.75, 0.1),
            (1.0, 0.05),
        ];
        let mean: f64 = pdf.iter().map(|(x, p)| x * p).sum();
        let var: f64 = pdf.iter().map(|(x, p)| p * (x - mean).powi(2)).sum();
        let n = 500.0;
        for (s0, s1) in [(0.25, 0.26), (0.255, 0.265), (0.27, 0.28)] {
            let exact = llr(&pdf, n, s0, s1);
            let normal = n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
            assert!(
                (exact - normal).abs() < 0.05 * normal.abs() + 1e-3,
                "{s0} {s1}: {exact} vs {normal}"
            );
            assert!((exact + llr(&pdf, n, s1, s0)).abs() < 1e-9);
        }
        let mid = llr(&pdf, n, mean - 0.01, mean + 0.01);
        // Only the distribution's skew (a third-order term) moves it off 0.
        assert!(mid.abs() < 0.02, "{mid}");
    }

    /// Seeded synthetic sets of 4 games in which the tested agent's expected share of a game's win
    /// is `score` (a whole win with probability `0.9 p`, a win shared with one field seat with
    /// probability `0.1 p`, `p = score / 0.95`): the test's decision and the sets it took, or
    /// `None` after `cap` sets.
    fn run(score: f64, hypotheses: (f64, f64), seed: u64, cap: u64) -> (Option<Decision>, u64) {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
        let p = score / 0.95;
        let mut t = Sprt::new(hypotheses, (0.05, 0.05), (1, 4), 4 * 60);
        while t.sets() < cap {
            let mut units = 0;
            for _ in 0..4 {
                let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                if u < p * 0.9 {
                    units += 60;
                } else if u < p {
                    units += 30;
                }
            }
            t.add(units);
            if let Some(d) = t.decision() {
                return (Some(d), t.sets());
            }
        }
        (None, t.sets())
    }

    /// At either hypothesis the test errs at most about as often as its error rates say (at most
    /// 10% of 200 runs, for 5%); far from both it decides sooner.
    #[test]
    fn data_from_h0_accepts_h0_and_data_from_h1_accepts_h1() {
        let hypotheses = (0.0, 60.0);
        let at = |elo: f64| expected_score(elo, 1, 4);
        let runs = |elo: f64, want: Decision| {
            let (mut wrong, mut sets) = (0, 0);
            for seed in 0..200 {
                let (d, n) = run(at(elo), hypotheses, seed, 100_000);
                assert!(
                    d.is_some(),
                    "elo {elo}, seed {seed}: undecided after {n} sets"
                );
                wrong += u32::from(d != Some(want));
                sets += n;
            }
            (wrong, sets)
        };
        let (wrong0, sets0) = runs(0.0, Decision::H0);
        let (wrong1, sets1) = runs(60.0, Decision::H1);
        assert!(
            wrong0 <= 20 && wrong1 <= 20,
            "{wrong0} and {wrong1} wrong of 200"
        );
        let (wrong, sets) = runs(-300.0, Decision::H0);
        assert!(
            wrong == 0 && sets < sets0 * 3 / 4,
            "{wrong} wrong, {sets} vs {sets0} sets"
        );
        let (wrong, sets) = runs(300.0, Decision::H1);
        assert!(
            wrong == 0 && sets < sets1 * 3 / 4,
            "{wrong} wrong, {sets} vs {sets1} sets"
        );
    }

    /// Halfway between the hypotheses the test takes longer than at either, on average.
    #[test]
    fn data_between_the_hypotheses_takes_longest() {
        let hypotheses = (0.0, 60.0);
        let mean_sets = |elo: f64| {
            let s = expected_score(elo, 1, 4);
            (0..10)
                .map(|seed| run(s, hypotheses, seed, 100_000).1)
                .sum::<u64>()
                / 10
        };
        let (h0, mid, h1) = (mean_sets(0.0), mean_sets(30.0), mean_sets(60.0));
        assert!(mid > h0 && mid > h1, "{h0} {mid} {h1}");
    }

    #[test]
    fn identical_sets_still_decide() {
        // The agent never wins: every set scores 0, far below H0's 0.25.
        let mut t = Sprt::new((0.0, 20.0), (0.05, 0.05), (1, 4), 240);
        for _ in 0..200 {
            t.add(0);
            if t.decision().is_some() {
                break;
            }
        }
        assert_eq!(t.decision(), Some(Decision::H0), "LLR {}", t.llr());
        assert!(t.sets() < 200);
        assert!(t.elo_estimate().is_infinite() && t.elo_estimate() < 0.0);
    }
}
