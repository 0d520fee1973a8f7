// Where a JSON text stops being valid, as a line and a column. JSON.parse's own messages quote the
// input (a secret in a malformed file would reach the model), so callers report this instead.

class Stop {}

/** 1-based line and column of the first character JSON.parse cannot accept; undefined if it is valid JSON. */
export function jsonErrorLocation(text: string): { line: number; column: number } | undefined {
  const offset = firstErrorOffset(text);
  if (offset === undefined) return undefined;
  const lines = text.slice(0, offset).split('\n');
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}

function firstErrorOffset(text: string): number | undefined {
  let i = 0;
  const stop = (): never => {
    throw new Stop();
  };
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const expect = (char: string) => (text[i] === char ? i++ : stop());
  const string = () => {
    expect('"');
    for (;;) {
      const char = text[i];
      if (char === undefined || char < ' ') stop();
      i++;
      if (char === '"') return;
      if (char !== '\\') continue;
      if ('"\\/bfnrt'.includes(text[i] ?? 'x')) i++;
      else if (text[i] === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) i += 5;
      else stop();
    }
  };
  const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const value = (): void => {
    space();
    const char = text[i];
    if (char === '{' || char === '[') {
      const close = char === '{' ? '}' : ']';
      i++;
      space();
      if (text[i] === close) return void i++;
      for (;;) {
        if (close === '}') {
          space();
          string();
          space();
          expect(':');
        }
        value();
        space();
        if (text[i] === ',') i++;
        else return void expect(close);
      }
    }
    if (char === '"') return string();
    const word = ['true', 'false', 'null'].find((w) => text.startsWith(w, i));
    if (word) return void (i += word.length);
    number.lastIndex = i;
    if (!number.test(text)) stop();
    i = number.lastIndex;
  };
  try {
    value();
    space();
    return i < text.length ? i : undefined;
  } catch (error) {
    if (error instanceof Stop) return i;
    return undefined; // nested too deeply to walk: no location rather than a wrong one
  }
}
