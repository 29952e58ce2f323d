/**
 * Where JSON text first goes wrong, as line and column (1-based): Node's JSON.parse names no
 * position for many errors. A small validating scanner, run only after JSON.parse failed;
 * nesting is bounded so a hostile file cannot exhaust the stack.
 */
export function jsonErrorAt(text: string): { line: number; column: number; offset: number } {
  let i = 0;
  const MAX_DEPTH = 512;
  const fail = (): never => {
    throw new Stop(i);
  };
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const literal = (word: string) => {
    for (const ch of word) {
      if (text[i] !== ch) fail();
      i++;
    }
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      const code = text.charCodeAt(i);
      if (code < 0x20) fail();
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail();
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? 'x')) fail();
      }
      i++;
    }
    if (i >= text.length) fail();
    i++;
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!match) fail();
    i += match![0].length;
  };
  const value = (depth: number): void => {
    if (depth > MAX_DEPTH) fail();
    space();
    const ch = text[i];
    if (ch === '{') {
      i++;
      space();
      if (text[i] === '}') return void i++;
      for (;;) {
        space();
        if (text[i] !== '"') fail();
        string();
        space();
        if (text[i] !== ':') fail();
        i++;
        value(depth + 1);
        space();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail();
      }
    }
    if (ch === '[') {
      i++;
      space();
      if (text[i] === ']') return void i++;
      for (;;) {
        value(depth + 1);
        space();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail();
      }
    }
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    return number();
  };
  try {
    value(0);
    space();
    if (i < text.length) fail();
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    i = error.offset;
  }
  const before = text.slice(0, i);
  const line = before.split('\n').length;
  return { line, column: i - before.lastIndexOf('\n'), offset: i };
}

class Stop {
  constructor(readonly offset: number) {}
}
