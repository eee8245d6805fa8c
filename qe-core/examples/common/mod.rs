//! What the search examples share: reading a search configuration from the command line, and the
//! confidence interval of a win share.

use qe_core::bots::{Level, SearchConfig};

/// The search configuration of `spec`: a search bot's name (`search:mixed`, say), a level name
/// (`easy`, `medium`, `hard`) or
/// `BUDGET,CANDIDATES,PROBE_WORLDS,PLAYOUTS_PER_WORLD,MIXED,SHARP,RIVAL_SEARCH,RIVAL_WORLDS,MODEL_SHARE,MIN_MIXED_ROUNDS`
/// (MIXED and SHARP 0 or 1; all but the budget may be left out: 7 candidates, 24 probe worlds,
/// 1 playout a world, a model share of 0, 200 rounds to mix, the rest 0). `None` for anything else.
pub fn search_config(spec: &str) -> Option<SearchConfig> {
    if let Some(config) = qe_core::bots::search_config(spec) {
        return Some(config);
    }
    if let Some(level) = Level::from_name(spec) {
        return Some(level.config());
    }
    let v: Vec<u64> = spec
        .split(',')
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()?;
    Some(SearchConfig {
        budget: v[0],
        candidates: v.get(1).copied().unwrap_or(7) as u8,
        probe_worlds: v.get(2).copied().unwrap_or(24) as u16,
        playouts_per_world: v.get(3).copied().unwrap_or(1) as u8,
        mixed: v.get(4).copied().unwrap_or(0) == 1,
        sharp_rivals: v.get(5).copied().unwrap_or(0) == 1,
        rival_search: v.get(6).copied().unwrap_or(0) as u32,
        rival_worlds: v.get(7).copied().unwrap_or(0) as u8,
        model_share: v.get(8).copied().unwrap_or(0) as u8,
        min_mixed_rounds: v.get(9).copied().unwrap_or(200) as u16,
        millis: 0,
    })
}

/// The 95% Wilson score interval of `wins` out of `n`, as shares (0 to 1).
pub fn wilson(wins: f64, n: f64) -> (f64, f64) {
    let z = 1.96f64;
    let p = wins / n;
    let c = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let h = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (c - h, c + h)
}
