//! Reading lines of bounded length from a stream a person or a program writes (`qe play`'s input,
//! an `exec:` agent's answers): memory stays bounded whatever comes, and a line that is too long
//! is skipped to its end and reported as such.

use std::io::BufRead;

/// One line read by [`read_line`].
pub enum Line {
    /// The line's bytes, without its end (`\n`, and a `\r` before it).
    Bytes(Vec<u8>),
    /// A line longer than the limit (its bytes were skipped).
    TooLong,
}

/// The next line of `reader`, read to at most `max` bytes; `None` at the end of the input (a last
/// line without `\n` is still a line).
pub fn read_line(reader: &mut impl BufRead, max: usize) -> std::io::Result<Option<Line>> {
    let mut line: Vec<u8> = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            return Ok(any.then(|| finish(line, too_long)));
        }
        any = true;
        let end = buf.iter().position(|&b| b == b'\n');
        let part = &buf[..end.unwrap_or(buf.len())];
        if !too_long && line.len() + part.len() <= max {
            line.extend_from_slice(part);
        } else {
            too_long = true;
            line = Vec::new();
        }
        let used = end.map_or(buf.len(), |e| e + 1);
        reader.consume(used);
        if end.is_some() {
            return Ok(Some(finish(line, too_long)));
        }
    }
}

fn finish(mut line: Vec<u8>, too_long: bool) -> Line {
    if too_long {
        return Line::TooLong;
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Line::Bytes(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], max: usize) -> Vec<Option<Vec<u8>>> {
        // A tiny buffer, so that lines cross buffer refills.
        let mut reader = std::io::BufReader::with_capacity(3, input);
        let mut out = Vec::new();
        while let Some(line) = read_line(&mut reader, max).unwrap() {
            out.push(match line {
                Line::Bytes(b) => Some(b),
                Line::TooLong => None,
            });
        }
        out
    }

    #[test]
    fn lines_are_cut_at_their_ends_and_long_ones_skipped_whole() {
        let got = all(b"bid 5\r\ntoo long a line\nok\n\nlast", 8);
        let want: Vec<Option<Vec<u8>>> = vec![
            Some(b"bid 5".to_vec()),
            None,
            Some(b"ok".to_vec()),
            Some(Vec::new()),
            Some(b"last".to_vec()),
        ];
        assert_eq!(got, want);
        assert!(all(b"", 8).is_empty());
        assert_eq!(
            all(b"12345678\n123456789\n", 8),
            vec![Some(b"12345678".to_vec()), None]
        );
    }
}
