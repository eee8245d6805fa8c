//! The mixed strategy of [`SearchConfig::mixed`](super::SearchConfig::mixed): regret matching
//! over the candidate bids, and the draw of the sealed bid from the strategy.

use alloc::vec::Vec;

use super::candidates::Choice;
use super::decision::Search;

impl Search<'_, '_> {
    /// Regret matching over `candidates` across the sampled worlds, within `budget` simulated
    /// commands: every candidate is played in every world (full information), each world is a
    /// round, and the strategy of a round puts weight on each candidate in proportion to its
    /// positive regret so far (uniform when none is positive). The strategy after the last
    /// round, or `None` if no world could be built.
    pub(super) fn regret_matching(
        &mut self,
        candidates: &[Choice],
        budget: u64,
    ) -> Option<Vec<f64>> {
        let c = candidates.len();
        self.stats.candidates = c as u8;
        let (per_playout, world) = self.costs();
        let ppw = f64::from(self.playouts_per_world);
        let budget = budget.saturating_sub(self.worlds.len() as u64 * world) as f64;
        let rounds = ((budget / (c as f64 * ppw * per_playout + world as f64)) as usize).max(2);
        let mut regret = alloc::vec![0.0f64; c];
        let mut strategy = alloc::vec![1.0 / c as f64; c];
        let mut u = alloc::vec![0.0f64; c];
        let mut played = 0;
        for t in 0..rounds {
            if self.out_of_time() || self.world(t).is_none() {
                break;
            }
            let positive: f64 = regret.iter().map(|r| r.max(0.0)).sum();
            for (s, r) in strategy.iter_mut().zip(&regret) {
                *s = if positive > 0.0 {
                    r.max(0.0) / positive
                } else {
                    1.0 / c as f64
                };
            }
            for (k, &choice) in candidates.iter().enumerate() {
                u[k] = self.value(t, choice);
            }
            let expected: f64 = strategy.iter().zip(&u).map(|(s, x)| s * x).sum();
            for k in 0..c {
                regret[k] += u[k] - expected;
            }
            played += 1;
        }
        // The final strategy: the average one keeps the first rounds' weight on candidates the
        // later worlds show to be worse, and that cost much strength (qe-core/src/bots/README.md).
        let positive: f64 = regret.iter().map(|r| r.max(0.0)).sum();
        (played > 0).then(|| {
            regret
                .iter()
                .map(|r| {
                    if positive > 0.0 {
                        r.max(0.0) / positive
                    } else {
                        1.0 / c as f64
                    }
                })
                .collect()
        })
    }
}

/// The index drawn from the distribution `p` (summing to about 1) by `u` in `[0, 1)`.
pub(super) fn draw(p: &[f64], u: f64) -> usize {
    let total: f64 = p.iter().sum();
    let mut left = u * total;
    for (i, &x) in p.iter().enumerate() {
        if left < x {
            return i;
        }
        left -= x;
    }
    p.iter()
        .rposition(|&x| x > 0.0)
        .unwrap_or(p.len().saturating_sub(1))
}
