// JSON with exact integers, for the page and the package's tests: `JSON.parse` rounds integers
// past 2^53 and `JSON.stringify` rejects BigInts, and bids go to 2^64 − 1.

/**
 * JSON text parsed with every integer a BigInt (so 2^64 − 1 and past it stay exact), other
 * numbers as numbers. Duplicate keys keep the last value, as JSON.parse does; with `strict`, a key
 * given twice or a number that is not an integer is a SyntaxError instead (the text then says
 * something a JavaScript object of it would not).
 */
export function parseExact(text, strict = false) {
  let i = 0;
  const ws = () => {
    while (/\s/.test(text[i] ?? '')) i++;
  };
  const value = () => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const obj = {};
      ws();
      if (text[i] === '}') return i++, obj;
      for (;;) {
        ws();
        const key = string();
        if (strict && Object.hasOwn(obj, key)) throw new SyntaxError(`key ${key} given twice`);
        ws();
        if (text[i++] !== ':') throw new SyntaxError(`expected : at ${i - 1}`);
        obj[key] = value();
        ws();
        const d = text[i++];
        if (d === '}') return obj;
        if (d !== ',') throw new SyntaxError(`expected , or } at ${i - 1}`);
      }
    }
    if (c === '[') {
      i++;
      const arr = [];
      ws();
      if (text[i] === ']') return i++, arr;
      for (;;) {
        arr.push(value());
        ws();
        const d = text[i++];
        if (d === ']') return arr;
        if (d !== ',') throw new SyntaxError(`expected , or ] at ${i - 1}`);
      }
    }
    if (c === '"') return string();
    const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?|^true|^false|^null/.exec(text.slice(i, i + 400));
    if (!m) throw new SyntaxError(`unexpected ${c} at ${i}`);
    i += m[0].length;
    if (m[0] === 'true') return true;
    if (m[0] === 'false') return false;
    if (m[0] === 'null') return null;
    if (strict && (m[1] || m[2])) throw new SyntaxError(`${m[0]} is not an integer`);
    return m[1] || m[2] ? Number(m[0]) : BigInt(m[0]);
  };
  const string = () => {
    if (text[i] !== '"') throw new SyntaxError(`expected a string at ${i}`);
    const m = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(i));
    i += m[0].length;
    return JSON.parse(m[0]);
  };
  const v = value();
  ws();
  if (i !== text.length) throw new SyntaxError(`trailing text at ${i}`);
  return v;
}

/** `value` as JSON text, a BigInt written as its digits (as serde_json writes an integer). */
export function stringifyExact(value) {
  return JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `\u0000${v}\u0000` : v)).replace(
    /"\\u0000(-?\d+)\\u0000"/g,
    '$1',
  );
}
