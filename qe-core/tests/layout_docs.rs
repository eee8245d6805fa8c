//! The documentation outside this crate that lists the observation's blocks agrees with the layout
//! (`qe_core::encoding::LAYOUT`), so it cannot drift: today the Python package's README, whose list
//! names every block in order and gives the shape of the per-seat and per-turn blocks.
//! The tables in this crate's own docs (`src/encoding/*.md`) are the rendering of the layouts
//! ([`layout_docs`]). This is checked here, on the crate as it ships: the crate's own tests compile
//! a toy expansion in, which adds a float to the observation.

use qe_core::encoding::{layout_docs, LAYOUT};

/// The documentation tables in `src/encoding/*.md` are the rendering of the layouts;
/// `QE_GOLDEN_BLESS=1` (`scripts/golden`) rewrites them.
#[test]
fn layout_docs_are_rendered_from_the_layout() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/encoding");
    let bless = std::env::var_os("QE_GOLDEN_BLESS").is_some_and(|v| !v.is_empty() && v != "0");
    let tables = layout_docs();
    assert_eq!(
        tables.len(),
        8,
        "a new table needs an include in encoding.rs's docs"
    );
    for (name, text) in &tables {
        let path = dir.join(name);
        if bless {
            std::fs::write(&path, text).unwrap();
            continue;
        }
        let committed =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            &committed, text,
            "src/encoding/{name} is not the rendering of the layout: run scripts/golden"
        );
    }
}

/// The block list of `qe-py/README.md`: the text from "(`players" to the closing "`".
fn readme_list() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../qe-py/README.md");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let start = text
        .find("(`players,")
        .expect("qe-py/README.md lists the observation blocks as (`players, ...`)")
        + 2;
    let len = text[start..]
        .find('`')
        .expect("the list ends with a backquote");
    text[start..start + len]
        .split(',')
        .map(|item| item.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn python_readme_lists_the_blocks_of_the_layout() {
    let items = readme_list();
    let names: Vec<&str> = items.iter().map(|i| i.split(' ').next().unwrap()).collect();
    let layout: Vec<&str> = LAYOUT.iter().map(|b| b.name).collect();
    assert_eq!(
        names, layout,
        "qe-py/README.md lists other blocks than the layout"
    );
    for (item, block) in items.iter().zip(&LAYOUT) {
        // A shape, when given, is `(slots×floats)`.
        if let Some(shape) = item.split_once(' ').map(|(_, s)| s) {
            assert_eq!(
                shape,
                format!("({}×{})", block.slots, block.slot_len),
                "qe-py/README.md: the shape of {}",
                block.name
            );
        } else {
            assert!(
                block.slots == 1 || block.name == "bids",
                "qe-py/README.md gives no shape for {}",
                block.name
            );
        }
    }
}

/// The sizes `qe-py/README.md` states are the layouts' ([`qe_core::encoding::OBS_SIZE`] and the
/// history and bounds blocks' lengths): each anchor it writes them by agrees, and every bare
/// number that stands for the observation's size (`float32[954]`, `players * 954`, `[N, 954]`…) is
/// the observation's size.
#[test]
fn python_readme_states_the_layouts_sizes() {
    use qe_core::encoding::{layout_len, BOUNDS_LAYOUT, HISTORY_LAYOUT, LAYOUT, OBS_SIZE};
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../qe-py/README.md");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let (obs, history, bounds) = (
        layout_len(&LAYOUT),
        layout_len(&HISTORY_LAYOUT),
        layout_len(&BOUNDS_LAYOUT),
    );
    assert_eq!(obs, OBS_SIZE);
    for anchor in [
        format!("`qe.OBS_SIZE` ({obs})"),
        format!("`qe.BOUNDS_SIZE` = {bounds} floats"),
        format!("`qe.INFO_STATE_SIZE` = {obs} + {history} floats"),
        format!("players * {obs}"),
        format!("float32[{obs}]"),
        format!("[N, P, {obs}]"),
        format!("[N, {obs}]"),
    ] {
        assert!(
            text.contains(&anchor),
            "qe-py/README.md does not say `{anchor}` (the layout's sizes changed?)"
        );
    }
    // No other size is given for the observation where these forms stand.
    for form in ["players * ", "float32[", "[N, P, ", "[N, "] {
        for (i, _) in text.match_indices(form) {
            let digits: String = text[i + form.len()..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            if !digits.is_empty() {
                assert_eq!(
                    digits.parse::<usize>().unwrap(),
                    obs,
                    "qe-py/README.md: `{form}{digits}`"
                );
            }
        }
    }
}
