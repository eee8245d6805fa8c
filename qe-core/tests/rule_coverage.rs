//! A check of the repository, not of the engine: every rule of the normative rules has a named test.
//! It reads `spec/RULES.md` at the repository's root, so it is not part of the published package.

/// Every rule ID of `spec/RULES.md` (the repository's copy of the normative rules) has a `#[test]`
/// in `tests/rules.rs` whose name is the ID (`R-AUC-6` → `r_auc_6_…`), and none is ignored or
/// compiled out.
#[test]
fn every_rule_has_a_named_test() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let rules = std::fs::read_to_string(root.join("spec/RULES.md")).unwrap();
    let tests = std::fs::read_to_string(root.join("qe-core/tests/rules.rs")).unwrap();
    let mut ids: Vec<String> = Vec::new();
    for line in rules.lines() {
        let Some(rest) = line.trim_start().strip_prefix("- **R-") else {
            continue;
        };
        let id: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        ids.push(format!("R-{id}"));
    }
    assert!(ids.len() >= 50, "found only {} rule IDs", ids.len());
    // A rule's test: `#[test]` on the line before `fn r_…_`, and no `#[ignore]` or `#[cfg…]`
    // on the line before that, so it runs in every build of the tests.
    let lines: Vec<&str> = tests.lines().map(str::trim).collect();
    let runs = |name: &str| {
        (1..lines.len()).any(|i| {
            lines[i].starts_with(name)
                && lines[i - 1] == "#[test]"
                && !(i >= 2
                    && (lines[i - 2].starts_with("#[ignore") || lines[i - 2].starts_with("#[cfg")))
        })
    };
    let missing: Vec<&String> = ids
        .iter()
        .filter(|id| !runs(&format!("fn {}_", id.to_lowercase().replace('-', "_"))))
        .collect();
    assert!(
        missing.is_empty(),
        "rules without a named #[test] that always runs: {missing:?}"
    );
    assert!(!tests.contains("#[ignore"), "tests/rules.rs ignores a test");
}
