//! Fitting text to the terminal: the output width, display widths, and wrapping.
//!
//! `qe play` and `qe replay --step` draw for a width of [`width`] columns: the terminal's when
//! standard output is a terminal, else the `COLUMNS` environment variable, else
//! [`DEFAULT_WIDTH`]. Tables size their columns to their contents (and are designed to fit
//! [`DEFAULT_WIDTH`] whatever the amounts); every line goes through [`fit`], which wraps what is
//! still too wide, so no line is ever wider than the width.

use std::io::IsTerminal;

use unicode_width::UnicodeWidthChar;

/// The width used when neither the terminal nor `COLUMNS` gives one.
pub const DEFAULT_WIDTH: usize = 100;

/// The narrowest width drawn for (a narrower terminal wraps lines itself).
pub const MIN_WIDTH: usize = 40;

/// The output width: the terminal's when standard output is a terminal, else `COLUMNS`, else
/// [`DEFAULT_WIDTH`]; never below [`MIN_WIDTH`].
pub fn width() -> usize {
    let terminal = if std::io::stdout().is_terminal() {
        terminal_size::terminal_size().map(|(w, _)| usize::from(w.0))
    } else {
        None
    };
    choose_width(terminal, std::env::var("COLUMNS").ok().as_deref())
}

/// [`width`] from its inputs: the terminal's width, if any, and the value of `COLUMNS`, if set.
fn choose_width(terminal: Option<usize>, columns: Option<&str>) -> usize {
    terminal
        .filter(|&w| w > 0)
        .or_else(|| columns.and_then(|c| c.trim().parse::<usize>().ok()))
        .filter(|&w| w > 0)
        .unwrap_or(DEFAULT_WIDTH)
        .max(MIN_WIDTH)
}

/// The number of terminal columns `text` takes: wide characters (CJK) count 2, combining and
/// control characters 0, every other character 1 (`·`, `≥`, `─` included).
pub fn display_width(text: &str) -> usize {
    text.chars().map(|c| c.width().unwrap_or(0)).sum()
}

/// Wraps one line (no `\n`) to `width` columns. Breaks go at spaces; the spacing inside each
/// piece is kept (table rows stay aligned as far as they fit); a word wider than the room is cut.
/// Continuation lines are indented by `indent` spaces (at most half the width).
pub fn wrap(line: &str, width: usize, indent: usize) -> String {
    let width = width.max(2);
    let indent = indent.min(width / 2);
    if display_width(line) <= width {
        return line.to_owned();
    }
    let mut out = String::new();
    let mut rest = line;
    let mut room = width;
    loop {
        if display_width(rest) <= room {
            out.push_str(rest);
            return out;
        }
        // The longest prefix that fits, the last space within it, and the last space after a
        // separator (`|`, `,`, `;`) in its second half: a break there keeps items whole.
        let mut used = 0;
        let mut fit_end = 0;
        let mut last_space = None;
        let mut last_separator = None;
        let mut previous = ' ';
        for (i, c) in rest.char_indices() {
            let w = c.width().unwrap_or(0);
            if used + w > room {
                break;
            }
            if c == ' ' && !rest[..i].trim().is_empty() {
                last_space = Some(i);
                if matches!(previous, '|' | ',' | ';') && used >= room / 2 {
                    last_separator = Some(i);
                }
            }
            used += w;
            fit_end = i + c.len_utf8();
            previous = c;
        }
        if rest[fit_end..].starts_with(' ') {
            last_space = Some(fit_end); // the prefix ends a word
            if matches!(previous, '|' | ',' | ';') {
                last_separator = Some(fit_end);
            }
        }
        // Without a space to break at, the word is cut (at least one character, to make progress).
        let cut = last_separator.or(last_space).unwrap_or(if fit_end == 0 {
            rest.chars().next().map_or(0, char::len_utf8)
        } else {
            fit_end
        });
        let (head, tail) = rest.split_at(cut);
        out.push_str(head.trim_end());
        rest = tail.trim_start();
        if rest.is_empty() {
            return out;
        }
        out.push('\n');
        out.push_str(&" ".repeat(indent));
        room = width - indent;
    }
}

/// Fits text to `width` columns, line by line: a line too wide is wrapped ([`wrap`]), its
/// continuation lines indented 4 spaces (6 for an indented line or table row, 2 for a `· ` event
/// line).
pub fn fit(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len());
    for (k, line) in text.split('\n').enumerate() {
        if k > 0 {
            out.push('\n');
        }
        let lead = line.len() - line.trim_start_matches(' ').len();
        let indent = if line.starts_with("· ") {
            2
        } else {
            lead.min(2) + 4
        };
        out.push_str(&wrap(line, width, indent));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_width_comes_from_the_terminal_then_columns_then_the_default() {
        assert_eq!(choose_width(Some(132), Some("80")), 132);
        assert_eq!(choose_width(None, Some("80")), 80);
        assert_eq!(choose_width(None, Some(" 120 ")), 120);
        assert_eq!(choose_width(None, Some("wide")), DEFAULT_WIDTH);
        assert_eq!(choose_width(None, Some("0")), DEFAULT_WIDTH);
        assert_eq!(choose_width(None, None), DEFAULT_WIDTH);
        assert_eq!(choose_width(Some(0), None), DEFAULT_WIDTH);
        assert_eq!(choose_width(Some(12), None), MIN_WIDTH);
    }

    #[test]
    fn display_width_counts_columns_not_bytes() {
        assert_eq!(display_width("spent ≥ 3 · ok"), 14);
        assert_eq!(display_width("──── ←"), 6);
        assert_eq!(display_width("日本"), 4);
        assert_eq!(display_width("e\u{301}"), 1);
    }

    #[test]
    fn wrapping_breaks_at_spaces_and_indents() {
        assert_eq!(wrap("short line", 20, 4), "short line");
        assert_eq!(wrap("aaa bbb ccc ddd eee", 11, 2), "aaa bbb ccc\n  ddd eee");
        // Leading spaces are kept and never taken for a break.
        assert_eq!(wrap("    aaaa bbbb", 10, 6), "    aaaa\n     bbbb");
        // Breaks go after a separator when one is in the second half of the line.
        assert_eq!(
            wrap("tiles: a b c d | assets: e f | spent 3", 25, 2),
            "tiles: a b c d |\n  assets: e f | spent 3"
        );
        // A word wider than the room is cut.
        assert_eq!(wrap("abcdefghij", 4, 0), "abcd\nefgh\nij");
        for text in [
            "  seat 4 (UK)    industry ?    tiles: JP-HOU:4VP@? US-HOU:2VP@18446744073709551615 \
             UK-AGR:3VP@? | assets: gold | peeked at turn 1 | spent ?",
            "x".repeat(300).as_str(),
            "· seat 2 (CN) took gold3 worth 6 VP at 18446744073709551615 ≥ ≥ ≥ ≥ ≥ ≥ ≥",
        ] {
            for width in [MIN_WIDTH, 50, 80, 100] {
                let out = fit(text, width);
                assert!(out.lines().all(|l| display_width(l) <= width), "{out}");
                let words = |s: &str| s.split_whitespace().collect::<String>();
                assert_eq!(words(&out), words(text));
            }
        }
    }
}
