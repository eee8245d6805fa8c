//! The modules of qe-core form layers: no module reaches, through `crate::` paths in its code
//! (comments and `#[cfg(test)] mod tests` left out), a module that reaches it back. A path through
//! a crate-root re-export (`crate::Deduction`) counts as a path to the module it comes from.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("read src") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without its comments and its unit-test modules (a top-level `mod` under
/// `#[cfg(test)]`, other attributes between them allowed, to its closing `}` at column 0).
fn code(text: &str) -> String {
    let mut out = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if line == "#[cfg(test)]" {
            let mut attrs = vec![line];
            while let Some(next) = lines.peek().filter(|l| l.starts_with("#[")) {
                attrs.push(next);
                lines.next();
            }
            if lines.peek().is_some_and(|l| l.starts_with("mod ")) {
                for skipped in lines.by_ref() {
                    if skipped == "}" {
                        break;
                    }
                }
                continue;
            }
            out.extend(attrs);
            continue;
        }
        if !line.trim_start().starts_with("//") {
            out.push(line);
        }
    }
    out.join("\n")
}

/// The identifiers right after each `crate::` (each name of a `crate::{a, b::c}` group).
fn crate_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // Top-level names of the group: split at commas outside nested braces.
            let mut depth = 0;
            let mut start = true;
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && (c.is_alphanumeric() || c == '_') => {
                        let name: String = group[j..]
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect();
                        out.push(name);
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            out.push(
                rest.chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect(),
            );
        }
    }
    out
}

#[test]
fn qe_core_has_no_import_circles() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    // The crate root's re-exports: name -> module.
    let mut reexports = BTreeMap::new();
    for stmt in code(&lib).split(';') {
        let Some(rest) = stmt.trim().strip_prefix("pub use ") else {
            continue;
        };
        let Some((module, names)) = rest.split_once("::") else {
            continue;
        };
        for name in names.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            if !name.is_empty() {
                reexports.insert(name.to_owned(), module.to_owned());
            }
        }
    }
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut deps: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let rel = file.strip_prefix(&src).expect("under src");
        let top = rel.components().next().expect("a component");
        let module = top
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_owned();
        if module == "lib" {
            continue;
        }
        let text = fs::read_to_string(file).expect("read");
        let entry = deps.entry(module.clone()).or_default();
        for name in crate_paths(&code(&text)) {
            let target = reexports.get(&name).cloned().unwrap_or(name);
            if target != module {
                entry.insert(target);
            }
        }
    }
    let modules: BTreeSet<String> = deps.keys().cloned().collect();
    assert!(modules.len() > 20 && modules.contains("game") && modules.contains("view"));
    // A module reaches itself again exactly when it is on a circle.
    let mut circles = Vec::new();
    for start in &modules {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<&String> = deps[start]
            .iter()
            .filter(|m| modules.contains(*m))
            .collect();
        while let Some(m) = stack.pop() {
            if m == start {
                circles.push(start.clone());
                break;
            }
            if seen.insert(m.clone()) {
                stack.extend(deps[m].iter().filter(|d| modules.contains(*d)));
            }
        }
    }
    assert!(
        circles.is_empty(),
        "modules on an import circle: {circles:?} (imports: {:?})",
        circles.iter().map(|m| (m, &deps[m])).collect::<Vec<_>>()
    );
}
