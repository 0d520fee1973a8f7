// Reads a jq program as tokens and says yes only to a subset that computes on its input: fields,
// literals, pipes, operators and a list of builtins that neither read the environment nor name files
// or modules. Anything else (`$ENV` or `$ ENV`, `env`, `$__loc__`, `input_filename`, `import`,
// comments, string interpolation, `def`) is asked. Pure; no `vscode`.

/** Builtins that only compute on their input (no environment, files, modules or the program's own location). */
const SAFE_BUILTINS = new Set(
  (
    'length utf8bytelength not keys keys_unsorted values has in inside contains map map_values to_entries from_entries with_entries ' +
    'select empty error add any all flatten range floor ceil round sqrt pow log exp fabs abs tostring tonumber type infinite nan ' +
    'isinfinite isnan isnormal sort sort_by group_by min max min_by max_by unique unique_by reverse startswith endswith ' +
    'ltrimstr rtrimstr trim ltrim rtrim explode implode split splits join ascii_downcase ascii_upcase test match capture scan ' +
    'sub gsub tojson fromjson todate fromdate todateiso8601 fromdateiso8601 mktime gmtime strftime strptime recurse paths ' +
    'leaf_paths first last nth limit until while repeat indices index rindex isempty arrays objects iterables booleans numbers ' +
    'strings nulls scalars tostream fromstream truncate_stream input inputs walk transpose combinations del to_array toarray ' +
    'true false null'
  ).split(' '),
);
/** Keywords of the language that read nothing themselves. */
const KEYWORDS = new Set(['if', 'then', 'elif', 'else', 'end', 'as', 'reduce', 'foreach', 'try', 'catch', 'and', 'or']);
const FORMATS = new Set(['text', 'json', 'html', 'uri', 'csv', 'tsv', 'sh', 'base64', 'base64d', 'base32', 'base32d']);
const PUNCTUATION = '|,()[]{}:;?+-*/%<>=';

type Token = { kind: 'ident' | 'punct' | 'other'; text: string };

/** Why the jq program is not in the subset the checker reads, or undefined when it is. */
export function jqProgramProblem(program: string): string | undefined {
  const tokens = tokenize(program);
  if (typeof tokens === 'string') return `the jq program ${tokens}`;
  const open: string[] = [];
  for (let k = 0; k < tokens.length; k++) {
    const { kind, text } = tokens[k]!;
    if (kind === 'punct') {
      if ('([{'.includes(text)) open.push(text);
      else if (')]}'.includes(text)) open.pop();
      continue;
    }
    if (kind !== 'ident' || SAFE_BUILTINS.has(text) || KEYWORDS.has(text)) continue;
    // An object key (`{env: 1}`, `{name}`) is a name, not a call.
    const before = tokens[k - 1]?.text;
    const after = tokens[k + 1]?.text;
    if (open.at(-1) === '{' && (before === '{' || before === ',') && (after === ':' || after === ',' || after === '}')) continue;
    return `the jq program uses \`${text}\`, which is not among the builtins a rule may run`;
  }
  return undefined;
}

/** The program's tokens, or why it cannot be read. */
function tokenize(program: string): Token[] | string {
  const tokens: Token[] = [];
  let i = 0;
  const ident = (from: number): string => /^[A-Za-z_][A-Za-z0-9_]*/.exec(program.slice(from))?.[0] ?? '';
  while (i < program.length) {
    const char = program[i]!;
    if (/[ \t\r\n]/.test(char)) {
      i++;
    } else if (char === '"') {
      const end = stringEnd(program, i);
      if (typeof end === 'string') return end;
      tokens.push({ kind: 'other', text: program.slice(i, end) });
      i = end;
    } else if (char === '$' || char === '@') {
      const name = ident(i + 1);
      if (char === '$' && (name === '' || name === 'ENV' || name.startsWith('__'))) return `reads \`$${name || ' …'}\` (the environment or its own location)`;
      if (char === '@' && !FORMATS.has(name)) return `uses the format \`@${name}\``;
      tokens.push({ kind: 'other', text: char + name });
      i += 1 + name.length;
    } else if (char === '.') {
      // `.`, `..` or a field `.name` (a field is data, whatever its name).
      const name = ident(i + 1);
      i += 1 + (name === '' && program[i + 1] === '.' ? 1 : name.length);
      tokens.push({ kind: 'other', text: '.' });
    } else if (/[0-9]/.test(char)) {
      const number = /^[0-9]+(\.[0-9]*)?([eE][+-]?[0-9]+)?/.exec(program.slice(i))![0];
      tokens.push({ kind: 'other', text: number });
      i += number.length;
    } else if (/[A-Za-z_]/.test(char)) {
      const name = ident(i);
      tokens.push({ kind: 'ident', text: name });
      i += name.length;
    } else if (PUNCTUATION.includes(char) || (char === '!' && program[i + 1] === '=')) {
      tokens.push({ kind: 'punct', text: char });
      i++;
    } else {
      return char === '#' ? 'has a comment' : `has \`${char}\`, which the checker does not read`;
    }
  }
  return tokens;
}

/** The index after a string literal starting at `start`, or why it is refused (interpolation runs code). */
function stringEnd(program: string, start: number): number | string {
  for (let i = start + 1; i < program.length; i++) {
    const char = program[i]!;
    if (char === '"') return i + 1;
    if (char !== '\\') continue;
    const next = program[i + 1];
    if (next === '(') return 'interpolates into a string';
    if (next === 'u' && /^[0-9A-Fa-f]{4}$/.test(program.slice(i + 2, i + 6))) i += 5;
    else if (next !== undefined && '"\\/bfnrt'.includes(next)) i++;
    else return 'has an escape the checker does not read';
  }
  return 'has an unterminated string';
}
