//! How an error message quotes a value the caller gave: at most [`SHOWN_MAX`] characters, with the
//! characters that would hide or fake text escaped.

use alloc::string::String;

/// The most characters of a caller's value that an error message quotes ([`shown`]).
pub const SHOWN_MAX: usize = 60;

/// A value the caller gave (a name, a key, a number's text), as an error message quotes it: control
/// characters, line and paragraph separators and the invisible format characters (bidirectional
/// overrides, zero-width spaces, the byte-order mark) escaped (`\u{0}`, `\n`, `\u{202e}`), and at
/// most [`SHOWN_MAX`] characters, then `...`. A message then stays one short line of printable
/// text, whatever the input.
///
/// ```
/// assert_eq!(qe_core::shown("gold"), "gold");
/// assert_eq!(qe_core::shown("a\0b"), "a\\u{0}b");
/// assert_eq!(qe_core::shown(&"x".repeat(1000)), format!("{}...", "x".repeat(60)));
/// ```
pub fn shown(text: &str) -> String {
    shown_at_most(text, SHOWN_MAX)
}

/// As [`shown`], with at most `max` characters before the `...`.
pub(crate) fn shown_at_most(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == max {
            out.push_str("...");
            break;
        }
        if c.is_control() || is_invisible(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether `c` is a line or paragraph separator (Zl, Zp) or one of the format characters (Cf) that
/// change how text around them shows: the soft hyphen, the zero-width and bidirectional marks and
/// overrides, the invisible operators, the byte-order mark.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{61c}'
            | '\u{180e}'
            | '\u{200b}'..='\u{200f}'
            | '\u{2028}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}'
            | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}'
    )
}

/// The keys `keys` as an error message lists them (`["bid", "peek"]`): each [`shown`], at most
/// eight, then `...`.
#[cfg(feature = "serde")]
pub(crate) fn shown_keys<'a>(keys: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::from("[");
    for (i, k) in keys.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        if i == 8 {
            out.push_str("...");
            break;
        }
        out.push('"');
        out.push_str(&shown(k));
        out.push('"');
    }
    out.push(']');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every invisible character [`shown`] names is escaped, each range from its first to its
    /// last character.
    #[test]
    fn shown_escapes_every_invisible_character() {
        let ranges = [
            ('\u{ad}', '\u{ad}'),
            ('\u{61c}', '\u{61c}'),
            ('\u{180e}', '\u{180e}'),
            ('\u{200b}', '\u{200f}'),
            ('\u{2028}', '\u{202e}'),
            ('\u{2060}', '\u{206f}'),
            ('\u{feff}', '\u{feff}'),
            ('\u{fff9}', '\u{fffb}'),
        ];
        for (first, last) in ranges {
            for c in first..=last {
                let want: String = c.escape_default().collect();
                assert_eq!(shown(&alloc::format!("a{c}b")), alloc::format!("a{want}b"));
            }
        }
        // Their neighbours show as they are.
        for c in [
            '\u{ac}', '\u{ae}', '\u{200a}', '\u{2027}', '\u{2070}', '\u{fffc}',
        ] {
            assert_eq!(shown(&alloc::format!("{c}")), alloc::format!("{c}"));
        }
    }

    /// At most eight keys, then `...`.
    #[cfg(feature = "serde")]
    #[test]
    fn shown_keys_lists_eight_keys_at_most() {
        let keys: alloc::vec::Vec<String> = (0..10).map(|i| alloc::format!("k{i}")).collect();
        let eight = shown_keys(keys.iter().take(8).map(String::as_str));
        assert_eq!(eight, r#"["k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7"]"#);
        let ten = shown_keys(keys.iter().map(String::as_str));
        assert_eq!(
            ten,
            r#"["k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", ...]"#
        );
    }
}
