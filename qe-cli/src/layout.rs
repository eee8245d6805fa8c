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
    terminal_width().unwrap_or(DEFAULT_WIDTH).max(MIN_WIDTH)
}

/// The width of the terminal, if known: the terminal's when standard output is a terminal, else
/// `COLUMNS` (as clap finds it for `--help`).
pub fn terminal_width() -> Option<usize> {
    let terminal = if std::io::stdout().is_terminal() {
        terminal_size::terminal_size().map(|(w, _)| usize::from(w.0))
    } else {
        None
    };
    choose_width(terminal, std::env::var("COLUMNS").ok().as_deref())
}

/// [`terminal_width`] from its inputs: the terminal's width, if any, and `COLUMNS`, if set.
fn choose_width(terminal: Option<usize>, columns: Option<&str>) -> Option<usize> {
    terminal
        .filter(|&w| w > 0)
        .or_else(|| columns.and_then(|c| c.trim().parse::<usize>().ok()))
        .filter(|&w| w > 0)
}

/// The number of terminal columns `text` takes: wide characters (CJK) count 2, combining and
/// control characters 0, every other character 1 (`·`, `≥`, `─` included).
pub fn display_width(text: &str) -> usize {
    text.chars().map(|c| c.width().unwrap_or(0)).sum()
}

/// Whether `text` fits in `room` columns; it looks at no more of `text` than fits, so wrapping a
/// long line costs time in proportion to its length.
fn fits(text: &str, room: usize) -> bool {
    let mut used = 0;
    text.chars().all(|c| {
        used += c.width().unwrap_or(0);
        used <= room
    })
}

/// Wraps one line (no `\n`) to `width` columns. Breaks go at spaces, after a separator (`|`,
/// `,`, `;`) when there is one in the second half of the line; the spacing inside each piece is
/// kept (table rows stay aligned as far as they fit); a word wider than the room is cut.
/// Continuation lines are indented by `indent` spaces (at most half the width).
pub fn wrap(line: &str, width: usize, indent: usize) -> String {
    wrap_at(line, width, indent, &['|', ',', ';'])
}

/// [`wrap`], preferring breaks after the `separators`.
fn wrap_at(line: &str, width: usize, indent: usize, separators: &[char]) -> String {
    let width = width.max(2);
    let indent = indent.min(width / 2);
    if fits(line, width) {
        return line.to_owned();
    }
    let mut out = String::new();
    let mut rest = line;
    let mut room = width;
    loop {
        if fits(rest, room) {
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
                if separators.contains(&previous) && used >= room / 2 {
                    last_separator = Some(i);
                }
            }
            used += w;
            fit_end = i + c.len_utf8();
            previous = c;
        }
        if rest[fit_end..].starts_with(' ') {
            last_space = Some(fit_end); // the prefix ends a word
            if separators.contains(&previous) {
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

/// Fits help text to `width` columns. The texts are written for [`DEFAULT_WIDTH`] columns: a line
/// broken there only because the next word did not fit is joined to the next one again (prose, and
/// the continuation of an indented item), then each line is wrapped with a hanging indent: under
/// the description of an indented `term  description` item, after the dash of a `- ` item.
pub fn fit_help(text: &str, width: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut previous: Option<&str> = None; // the previous line as written
    for line in text.split('\n') {
        match lines.last_mut() {
            Some(last) if previous.is_some_and(|p| continues(p, lead(last), line)) => {
                last.push(' ');
                last.push_str(line.trim_start());
            }
            _ => lines.push(line.to_owned()),
        }
        previous = Some(line);
    }
    let fitted: Vec<String> = lines
        .iter()
        .map(|l| wrap_at(l, width, hanging_indent(l), &[]))
        .collect();
    fitted.join("\n")
}

/// The number of leading spaces of a line.
fn lead(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// Whether `next` continues `line`, which was broken at [`DEFAULT_WIDTH`] only because the first
/// word of `next` did not fit: `next` is prose after prose, or indented deeper than the item
/// (starting `item_lead` spaces in) that `line` belongs to.
fn continues(line: &str, item_lead: usize, next: &str) -> bool {
    let first_word = next.split_whitespace().next().unwrap_or("");
    if line.trim().is_empty() || first_word.is_empty() {
        return false;
    }
    let b = lead(next);
    let nested = b > item_lead || (item_lead == 0 && b == 0);
    nested && display_width(line) + 1 + display_width(first_word) > DEFAULT_WIDTH
}

/// Where the continuation lines of a help line start: under the description of an indented
/// `term  description` item, after the dash of a `- ` item, else under the line's first character.
fn hanging_indent(line: &str) -> usize {
    let lead = lead(line);
    let body = &line[lead..];
    if body.starts_with("- ") {
        return lead + 2;
    }
    if lead > 0 {
        if let Some(gap) = body.find("  ") {
            let spaces = body[gap..].len() - body[gap..].trim_start().len();
            return lead + display_width(&body[..gap + spaces]);
        }
    }
    lead
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_width_comes_from_the_terminal_then_columns() {
        assert_eq!(choose_width(Some(132), Some("80")), Some(132));
        assert_eq!(choose_width(None, Some("80")), Some(80));
        assert_eq!(choose_width(None, Some(" 120 ")), Some(120));
        assert_eq!(choose_width(None, Some("wide")), None);
        assert_eq!(choose_width(None, Some("0")), None);
        assert_eq!(choose_width(None, None), None);
        assert_eq!(choose_width(Some(0), None), None);
        assert_eq!(choose_width(Some(12), None), Some(12));
    }

    #[test]
    fn help_is_rejoined_then_wrapped_with_hanging_indents() {
        let text = format!(
            "Intro:\n  take PILE   {}\n  - item {} and\n    {} and\n    continued\n{}\nparagraph \
             end\nshort",
            "word ".repeat(14).trim_end(),
            "y ".repeat(43).trim_end(),
            "zzz ".repeat(23).trim_end(),
            "p".repeat(97)
        );
        let fitted = fit_help(&text, 40);
        let lines: Vec<&str> = fitted.lines().collect();
        assert!(lines.iter().all(|l| display_width(l) <= 40), "{lines:#?}");
        assert_eq!(lines[0], "Intro:");
        assert_eq!(lines[1], "  take PILE   word word word word word");
        assert_eq!(lines[2], "              word word word word word");
        // The dash item's continuation line is joined again, then wrapped after the dash.
        let item = lines
            .iter()
            .position(|l| l.starts_with("  - item"))
            .unwrap();
        assert_eq!(lines[item + 1], "    y y y y y y y y y y y y y y y y y y");
        assert!(lines.iter().any(|l| l.contains("y and zzz")), "{lines:#?}");
        assert!(
            lines.iter().any(|l| l.ends_with("zzz and continued")),
            "{lines:#?}"
        );
        // Prose broken at 100 columns is one paragraph again; short lines stay lines.
        assert!(
            lines.iter().any(|l| l.ends_with("p paragraph end")),
            "{lines:#?}"
        );
        assert_eq!(lines.last(), Some(&"short"));
        // At 100 columns or more, text written for 100 columns comes out as written.
        let plain = "Line one.\n  a  b\n  - c";
        assert_eq!(fit_help(plain, 100), plain);
        assert_eq!(fit_help(plain, 200), plain);
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
