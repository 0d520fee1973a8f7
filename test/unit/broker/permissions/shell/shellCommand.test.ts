import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  loadShellParser,
  MAX_COMMAND_LINE_LENGTH,
  SHELL_WASM_FILES,
  type ParsedCommandLine,
  type ShellParser,
  type SubCommand,
} from '../../../../../src/broker/permissions/shell/shellCommand';
import { ROOT } from '../../../helpers/repoRoot';

const WASM = join(ROOT, 'node_modules', '@vscode', 'tree-sitter-wasm', 'wasm');
const loadParser = () => loadShellParser({ treeSitterWasm: join(WASM, SHELL_WASM_FILES.treeSitter), bashWasm: join(WASM, SHELL_WASM_FILES.bash) });

function commands(parsed: ParsedCommandLine): SubCommand[] {
  assert.ok(parsed.ok, `expected the line to parse: ${parsed.ok ? '' : parsed.reason}`);
  return parsed.commands;
}

suite('shell command parser', () => {
  let parser: ShellParser;
  suiteSetup(async () => {
    parser = await loadParser();
  });
  const only = (line: string): SubCommand => {
    const all = commands(parser.parse(line));
    assert.equal(all.length, 1, `one sub-command in ${line}: ${all.map((c) => c.text).join(' | ')}`);
    return all[0]!;
  };
  const texts = (line: string) => commands(parser.parse(line)).map((c) => c.text);
  const refused = (line: string, reason?: RegExp) => {
    const parsed = parser.parse(line);
    assert.equal(parsed.ok, false, `${JSON.stringify(line)} must not parse: ${parsed.ok ? parsed.commands.map((c) => c.text).join(' | ') : ''}`);
    if (reason && !parsed.ok) assert.match(parsed.reason, reason);
  };

  test('prevents one caller changing a parsed line from changing what the next caller of the same line reads: the result cannot be changed', () => {
    const first = only('git log --oneline -5');
    assert.throws(() => first.words.push('--exec=evil'), TypeError);
    assert.throws(() => Object.assign(first, { text: 'changed' }), TypeError);
    assert.deepEqual(only('git log --oneline -5').words, ['git', 'log', '--oneline', '-5']);
    assert.equal(only('git log --oneline -5').text, 'git log --oneline -5');
  });

  test('a line parsed again after 100 others reads as the first time', () => {
    const before = parser.parse('npm test && git status');
    for (let i = 0; i < 100; i++) parser.parse(`echo ${i}`);
    assert.deepEqual(parser.parse('npm test && git status'), before);
  });

  test('a simple command: text, words, no writes, static', () => {
    assert.deepEqual(only('git log --oneline -5'), {
      text: 'git log --oneline -5',
      source: 'git log --oneline -5',
      words: ['git', 'log', '--oneline', '-5'],
      assignments: [],
      writes: [],
      reads: [],
      dynamic: false,
    });
  });

  test('quotes and escapes are resolved in words and kept in the text', () => {
    const command = only(`echo 'single $x' "double \\"q\\" \\$y" $'tab\\tA\\x41\\101' a\\ b \\; "" mid"dle"'s'`);
    assert.deepEqual(command.words, ['echo', 'single $x', 'double "q" $y', 'tab\tAAA', 'a b', ';', '', 'middles']);
    assert.equal(command.text, `echo 'single $x' "double \\"q\\" \\$y" $'tab\\tA\\x41\\101' a\\ b \\; "" mid"dle"'s'`);
    assert.equal(command.dynamic, false);
  });

  test("prevents a NUL in $'…' from hiding an argument: bash ends that quoted piece at the NUL", () => {
    assert.deepEqual(only("find . $'-exec\\0' touch x \\;").words, ['find', '.', '-exec', 'touch', 'x', ';']);
    for (const [line, word] of [
      ["echo a$'b\\0c'd", 'abd'],
      ["echo $'-exec\\x00rm'", '-exec'],
      ["echo $'-exec\\x0'", '-exec'],
      ["echo $'-exec\\000x'", '-exec'],
      ["echo $'-exec\\400'", '-exec'],
      ["echo $'-exec\\c@x'", '-exec'],
      ["echo $'-exec\\c x'", '-exec'],
      ["echo $'-exec\\u0000x'", '-exec'],
      ["echo $'-exec\\U00000000x'", '-exec'],
      ["echo $'-exec\\x{}x'", '-exec'],
      ["echo -e$'x\\0y'ec", '-exec'],
    ] as const) {
      const command = only(line);
      assert.deepEqual(command.words, ['echo', word], line);
      assert.equal(command.dynamic, false, line);
    }
  });

  test("$'…' escapes give the bytes bash 5.2 gives (checked against bash in bashWords.test.ts)", () => {
    for (const [written, word] of [
      ['\\x41\\x4', 'A\x04'],
      ['\\x414', 'A4'],
      ['\\x{41}', 'A'],
      ['\\x{4142}', 'B'],
      ['\\xc3\\xa9', 'é'],
      ['\\303\\251', 'é'],
      ['\\101', 'A'],
      ['\\1234', 'S4'],
      ['\\0012', '\x012'],
      ['\\777', undefined],
      ['\\u00e9', 'é'],
      ['\\u00410', 'A0'],
      ['\\U1F600', '😀'],
      ['\\ca', '\x01'],
      ['\\cA', '\x01'],
      ['\\c?', '\x7f'],
      ['\\c[', '\x1b'],
      ['\\c\\\\', '\x1c'],
      ['\\c\\x', '\x1cx'],
      ['\\c1', '\x11'],
      ['\\e\\E', '\x1b\x1b'],
      ['\\\'\\"\\?', '\'"?'],
      ['\\a\\b\\f\\n\\r\\t\\v\\\\', '\x07\b\f\n\r\t\v\\'],
      // Unknown escapes and escapes without their digits keep the backslash.
      ['\\q\\z', '\\q\\z'],
      ['\\8', '\\8'],
      ['\\x', '\\x'],
      ['\\xg', '\\xg'],
      ['\\u', '\\u'],
      ['\\Ug', '\\Ug'],
      ['\\c', '\\c'],
      ['\\\n', '\\\n'],
      // Bytes that are not UTF-8, and code points with no UTF-8 form: not static.
      ['\\xff', undefined],
      ['\\xc3', undefined],
      ['\\ud800', undefined],
      ['\\U110000', undefined],
      ['\\cé', undefined],
    ] as const) {
      const command = only(`printf $'${written}'`);
      if (word === undefined) {
        assert.equal(command.dynamic, true, written);
        assert.equal(command.words[1], `$'${written}'`, written);
      } else {
        assert.deepEqual(command.words, ['printf', word], written);
        assert.equal(command.dynamic, false, written);
      }
    }
  });

  test('$"…" (translated through the locale) stays dynamic, written as is', () => {
    for (const line of ['echo $"hi"', 'echo a$"hi"', 'echo $"hi"b']) {
      const command = only(line);
      assert.equal(command.dynamic, true, line);
      assert.equal(command.words[1], line.slice(5), line);
    }
  });

  test('backslashes, adjacent quoted pieces and line continuations resolve as in bash', () => {
    assert.deepEqual(only(`echo 'a'"b"c\\ d a\\qb\\\\c "a\\qb\\\\c\\"d\\\`" '\\n'`).words, ['echo', 'abc d', 'aqb\\c', 'a\\qb\\c"d`', '\\n']);
    assert.deepEqual(only('echo "a\\\nb" \\\n  c').words, ['echo', 'ab', 'c']);
    assert.deepEqual(only('echo \\é \\😀').words, ['echo', 'é', '😀']);
  });

  test('prevents a quoted piece followed by a backslash escape from splitting one word into two', () => {
    // The grammar makes two words of `'-exe'\c`; bash makes one.
    assert.deepEqual(only("find . '-exe'\\c rm \\;").words, ['find', '.', '-exec', 'rm', ';']);
    assert.deepEqual(only('find . "-exe"\\c $\'-ex\'\\e\\c\\;').words, ['find', '.', '-exec', '-exec;']);
    assert.deepEqual(only("'fi'\\nd . -delete").words, ['find', '.', '-delete']);
    assert.deepEqual(only("export 'A'\\=1").words, ['export', 'A=1']);
    refused("A='x'\\y rm -rf z", /run together/);
  });

  test("prevents a $'…' ending in an escaped backslash from hiding the commands after it", () => {
    // bash ends the string at `\\'` and runs `rm -rf x`; the grammar's token runs on to the next quote.
    refused("echo $'\\\\' ; rm -rf x ; echo 'x' # '", /read differently/);
    assert.deepEqual(only("echo $'\\\\' x").words, ['echo', '\\', 'x']);
    assert.deepEqual(only("echo $'it\\'s'").words, ['echo', "it's"]);
  });

  test('prevents a backslash before a carriage return from hiding a command (bash reads no line continuation there)', () => {
    refused('echo \\\r\nrm -rf x');
    refused('echo a\rrm -rf x');
  });

  test('prevents a line continuation inside a word from splitting it (bash joins the two halves)', () => {
    refused('find . -ex\\\nec rm \\;', /continuation inside a word/);
    assert.deepEqual(only('find . \\\n-delete').words, ['find', '.', '-delete']);
  });

  test('reads: input redirections, resolved; <> reads and writes; fd-numbered forms', () => {
    const effects = (line: string) => commands(parser.parse(line)).map((c) => ({ reads: c.reads, writes: c.writes }));
    assert.deepEqual(effects('sort < in.txt'), [{ reads: ['in.txt'], writes: [] }]);
    assert.deepEqual(effects(`sort 0<'c'\\.d < "a b"`), [{ reads: ['c.d', 'a b'], writes: [] }]);
    // The grammar reads `0` as a second target of `< f`: refused rather than guessed.
    refused('sort < f 0<g', /after a redirection target/);
    assert.deepEqual(effects('cat <> f'), [{ reads: ['f'], writes: ['f'] }]);
    assert.deepEqual(effects('cat 3<> "g h" <>/dev/null'), [{ reads: ['g h', '/dev/null'], writes: ['g h'] }]);
    assert.deepEqual(effects('echo a<>b'), [{ reads: ['b'], writes: ['b'] }]);
    assert.deepEqual(only('echo a<>b').words, ['echo', 'a']);
    assert.deepEqual(effects('ls >| f; ls &> g; ls &>> h; ls >> i; ls 2> j; ls 2>> k; ls 2>| l; ls 12> m'), [
      { reads: [], writes: ['f'] },
      { reads: [], writes: ['g'] },
      { reads: [], writes: ['h'] },
      { reads: [], writes: ['i'] },
      { reads: [], writes: ['j'] },
      { reads: [], writes: ['k'] },
      { reads: [], writes: ['l'] },
      { reads: [], writes: ['m'] },
    ]);
    // Digits right before `<`/`>` are the file descriptor, not an argument; before `&>` they are an argument.
    assert.deepEqual(only('cat 0<f').words, ['cat']);
    assert.deepEqual(only('cat 0>| "f"').words, ['cat']);
    assert.deepEqual(only('cat 0<<<x').words, ['cat']);
    assert.deepEqual(only('echo 2&>f').words, ['echo', '2']);
    assert.deepEqual(only("echo '2'>f").words, ['echo', '2']);
    // A loop's or group's input is read by each command in it.
    assert.deepEqual(effects('while read -r l; do echo "$l"; done < list.txt'), [
      { reads: ['list.txt'], writes: [] },
      { reads: ['list.txt'], writes: [] },
    ]);
    const dynamic = only('cat < $FILE');
    assert.deepEqual(dynamic.reads, ['$FILE']);
    assert.equal(dynamic.dynamic, true);
    assert.equal(commands(parser.parse('{ cat; } < $F'))[0]!.dynamic, true);
    refused('{ cat; } <> f', /group/);
    refused('cat < f x', /after a redirection target/);
    assert.deepEqual(effects('cat <<EOF <<< s\nx\nEOF'), [{ reads: [], writes: [] }]);
  });

  test('a word that is not static text is kept as written and makes the command dynamic', () => {
    for (const [line, word] of [
      ['echo $HOME', '$HOME'],
      ['echo "$HOME/x"', '"$HOME/x"'],
      ['echo ${x:-y}', '${x:-y}'],
      ['echo $(date)', '$(date)'],
      ['echo `date`', '`date`'],
      ['echo $((1 + 2))', '$((1 + 2))'],
      ['ls *.ts', '*.ts'],
      ['ls src/?.ts', 'src/?.ts'],
      ['ls ~/x', '~/x'],
      ['ls ~', '~'],
      ['make DESTDIR=~/x', 'DESTDIR=~/x'],
      ['echo {a,b}', '{a,b}'],
      ['echo {1..3}', '{1..3}'],
      ['echo $"hi"', '$"hi"'],
      ['$CMD x', '$CMD'],
    ] as const) {
      const command = commands(parser.parse(line))[0]!;
      assert.equal(command.dynamic, true, line);
      assert.ok(command.words.includes(word), `${line}: ${JSON.stringify(command.words)}`);
    }
    for (const line of ['git show HEAD~1', "ls '*.ts'", 'ls \\*.ts', 'git stash show stash@{0}', "echo '~'"]) assert.equal(only(line).dynamic, false, line);
  });

  test('lists, pipelines, background jobs and newlines give one sub-command each, in line order', () => {
    assert.deepEqual(texts('npm ci && npm test || echo failed; git status | head -n 5 & sleep 1'), ['npm ci', 'npm test', 'echo failed', 'git status', 'head -n 5', 'sleep 1']);
    assert.deepEqual(texts('npm ci\nnpm test\n'), ['npm ci', 'npm test']);
    assert.deepEqual(texts('a |& b'), ['a', 'b']);
    assert.deepEqual(texts('! grep -q x f'), ['grep -q x f']);
  });

  test('subshells, brace groups and control structures are walked into', () => {
    assert.deepEqual(texts('(cd src && ls)'), ['cd src', 'ls']);
    assert.deepEqual(texts('{ ls; pwd; }'), ['ls', 'pwd']);
    assert.deepEqual(texts('if [ -f x ]; then cat x; elif true; then :; else rm y; fi'), ['[ -f x ]', 'cat x', 'true', ':', 'rm y']);
    assert.deepEqual(texts('for f in a $(ls); do echo "$f"; done'), ['ls', 'echo "$f"']);
    assert.deepEqual(texts('for ((i = 0; i < 3; i++)); do echo $i; done'), ['echo $i']);
    assert.deepEqual(texts('while read -r l; do echo "$l"; done < f'), ['read -r l', 'echo "$l"']);
    assert.deepEqual(texts('until false; do sleep 1; done'), ['false', 'sleep 1']);
    assert.deepEqual(texts('case "$x" in a|b) ls;; *) rm -rf y;; esac'), ['ls', 'rm -rf y']);
    assert.deepEqual(texts('f() { rm -rf x; }; f'), ['rm -rf x', 'f']);
    assert.deepEqual(texts('function g { ls; }'), ['ls']);
    assert.deepEqual(texts('select x in a b; do echo $x; done'), ['echo $x']);
  });

  test('commands inside substitutions count, however deeply nested, with the outer command too', () => {
    assert.deepEqual(texts('echo "$(rm -rf x)"'), ['echo "$(rm -rf x)"', 'rm -rf x']);
    assert.deepEqual(texts('echo $(echo $(rm -rf y))'), ['echo $(echo $(rm -rf y))', 'echo $(rm -rf y)', 'rm -rf y']);
    assert.deepEqual(texts('echo `rm x` "a `id` b"'), ['echo `rm x` "a `id` b"', 'rm x', 'id']);
    assert.deepEqual(texts('diff <(sort a) >(cat)'), ['diff <(sort a) >(cat)', 'sort a', 'cat']);
    assert.deepEqual(texts('echo ${x:-$(id)} ${a[$(whoami)]}'), ['echo ${x:-$(id)} ${a[$(whoami)]}', 'id', 'whoami']);
    assert.deepEqual(texts('X=$(id) cmd'), ['cmd', 'id']);
    assert.deepEqual(texts('export A=$(id)'), ['export A=$(id)', 'id']);
    assert.deepEqual(texts('echo hi > "$(mktemp)"'), ['echo hi', 'mktemp']);
    assert.deepEqual(texts('echo $(( $(id -u) + 1 ))'), ['echo $(( $(id -u) + 1 ))', 'id -u']);
  });

  test('here-documents are data, except $(…) under an unquoted delimiter and what follows <<EOF on its line', () => {
    assert.deepEqual(texts("cat <<'EOF'\nrm -rf $(x) `y`\nEOF"), ['cat']);
    assert.deepEqual(texts('cat <<"EOF"\n$(x)\nEOF'), ['cat']);
    assert.deepEqual(texts('cat <<EOF\nhello $(whoami) $HOME\nEOF'), ['cat', 'whoami']);
    assert.deepEqual(texts('cat <<-EOF\n\tx $(id)\n\tEOF'), ['cat', 'id']);
    // The grammar leaves this $(…) unparsed (a tab-stripped here-document line starting with it): refused, not missed.
    refused('cat <<-EOF\n\t$(id)\n\tEOF', /here-document/);
    assert.deepEqual(texts('cat <<EOF | sh\nrm -rf x\nEOF'), ['cat', 'sh']);
    assert.deepEqual(texts('cat <<EOF && rm y\nbody\nEOF\necho after'), ['cat', 'rm y', 'echo after']);
    const cat = commands(parser.parse('cat <<EOF > out.txt\nx\nEOF'))[0]!;
    assert.deepEqual(cat.writes, ['out.txt']);
    assert.equal(cat.source, 'cat <<EOF > out.txt\nx\nEOF');
    refused('cat <<EOF\n`id`\nEOF', /backticks/);
    assert.deepEqual(texts('cat <<EOF\n${x:-$(id)} \\$(not) \\`not\\`\nEOF'), ['cat', 'id']);
  });

  test('here-strings feed data; their substitutions still count', () => {
    assert.deepEqual(texts('grep x <<< "$(pwd)"'), ['grep x <<< "$(pwd)"', 'pwd']);
    assert.equal(only('grep x <<< hello').dynamic, false);
    assert.equal(commands(parser.parse('grep x <<< $SECRET'))[0]!.dynamic, true);
  });

  test('arithmetic: $((…)) is a dynamic word; ((…)) and [[ … ]] are sub-commands named by their bracket', () => {
    assert.deepEqual(only('((i++))').words, ['((']);
    assert.deepEqual(only('[[ -f x ]]').words, ['[[']);
    assert.deepEqual(only('[ -f x ]').words, ['[']);
    assert.equal(only('[[ $x == y ]]').dynamic, true);
    assert.equal(only('[[ -f x ]]').dynamic, false);
  });

  test('redirections: file writes are recorded as bash opens them; /dev/null, fd duplications and input are not writes', () => {
    const write = (line: string) => commands(parser.parse(line)).map((c) => c.writes);
    assert.deepEqual(write('ls > out.txt'), [['out.txt']]);
    assert.deepEqual(write('ls >> "a b.txt" 2> err.log'), [['a b.txt', 'err.log']]);
    assert.deepEqual(write("ls > $'o\\x75t'.txt 2>'e'\\.r"), [['out.txt', 'e.r']]);
    assert.deepEqual(write('ls > "$HOME/x"'), [['"$HOME/x"']]);
    assert.deepEqual(write('ls &> all.log; ls &>> all.log; ls >| f; ls >& g'), [['all.log'], ['all.log'], ['f'], ['g']]);
    assert.deepEqual(write('ls > /dev/null 2>&1'), [[]]);
    assert.deepEqual(write('ls 2>/dev/null >&2 <&0 2>&-'), [[]]);
    assert.deepEqual(write('sort < in.txt'), [[]]);
    assert.deepEqual(write('> f echo hi'), [['f']]);
    // In bash the redirection of a pipeline's end belongs to its last command.
    assert.deepEqual(write('a | b > f'), [[], ['f']]);
    assert.deepEqual(write('git status 2>&1 | head'), [[], []]);
    assert.deepEqual(write('(a; b) 2>/dev/null'), [[], []]);
    const redirected = commands(parser.parse('> f echo hi'))[0]!;
    assert.equal(redirected.text, 'echo hi');
    assert.equal(redirected.source, '> f echo hi');
    assert.equal(commands(parser.parse('cat < $FILE'))[0]!.dynamic, true);
  });

  test('leading assignments are kept apart from the text', () => {
    const command = only('NODE_ENV=test FOO="a b" npm test');
    assert.deepEqual(command.assignments, ['NODE_ENV=test', 'FOO="a b"']);
    assert.equal(command.text, 'npm test');
    assert.equal(command.source, 'NODE_ENV=test FOO="a b" npm test');
    assert.deepEqual(command.words, ['npm', 'test']);
    assert.deepEqual(only('echo a=b').words, ['echo', 'a=b']);
  });

  test('standalone assignments give a sub-command with no words; declarations start with their keyword', () => {
    assert.deepEqual(only('FOO=bar'), { text: 'FOO=bar', source: 'FOO=bar', words: [], assignments: ['FOO=bar'], writes: [], reads: [], dynamic: false });
    assert.deepEqual(only('A=1 B=$x').assignments, ['A=1', 'B=$x']);
    assert.equal(only('A=1 B=$x').dynamic, true);
    assert.deepEqual(only('export PATH=/x:/y').words, ['export', 'PATH=/x:/y']);
    assert.deepEqual(only('local x').words, ['local', 'x']);
    assert.deepEqual(only('declare -a arr=(1 2)').words.slice(0, 2), ['declare', '-a']);
    assert.deepEqual(only('readonly q=1').words, ['readonly', 'q=1']);
    assert.deepEqual(only('typeset t').words, ['typeset', 't']);
    assert.deepEqual(only('unset z').words, ['unset', 'z']);
    assert.equal(only('export P=$PATH').dynamic, true);
  });

  test('shell, wrapper and eval commands are one sub-command whose script stays one word', () => {
    assert.deepEqual(only('bash -c "npm test && rm -rf x"').words, ['bash', '-c', 'npm test && rm -rf x']);
    assert.deepEqual(only("sh -c 'ls'").words, ['sh', '-c', 'ls']);
    assert.deepEqual(only('eval "rm -rf x"').words, ['eval', 'rm -rf x']);
    assert.deepEqual(only('sudo -u root npm test').words, ['sudo', '-u', 'root', 'npm', 'test']);
    assert.deepEqual(only('timeout 5 npm test').words, ['timeout', '5', 'npm', 'test']);
    assert.deepEqual(only('time ls').words, ['time', 'ls']);
    assert.deepEqual(texts('find . -name "*.ts" | xargs wc -l'), ['find . -name "*.ts"', 'xargs wc -l']);
  });

  test('a line continuation joins words; comments are ignored', () => {
    assert.deepEqual(only('npm \\\n  test').words, ['npm', 'test']);
    assert.deepEqual(texts('ls # rm -rf x\npwd'), ['ls', 'pwd']);
  });

  test('offsets are right with non-ASCII text', () => {
    assert.deepEqual(only('echo é 😀 "ü" x').words, ['echo', 'é', '😀', 'ü', 'x']);
    assert.equal(commands(parser.parse('echo 😀 && ls'))[1]!.text, 'ls');
  });

  test('fails closed on syntax errors, unknown constructs and oversized lines', () => {
    refused('', /empty/);
    refused('   \n ', /empty/);
    refused('# only a comment', /no command/);
    refused("echo 'unterminated", /syntax/);
    refused('echo "unterminated');
    refused('(', /syntax/);
    refused('echo $(');
    refused('a &&');
    refused('if true; then ls');
    refused('ls;;', /case/);
    refused('echo > f hi', /after a redirection target/);
    refused('cat 2>&- x');
    refused('cat {fd}> f', /variable/);
    refused('0<f', /file descriptor/);
    refused('> f', /without a command/);
    refused('(a; b) > f', /group/);
    refused('{ a; } >> f', /group/);
    refused('echo ${x@P}');
    refused(`echo ${'x'.repeat(MAX_COMMAND_LINE_LENGTH)}`, /longer than 10000/);
    assert.equal(parser.parse(`echo ${'x'.repeat(MAX_COMMAND_LINE_LENGTH - 5)}`).ok, true);
  });

  test('the parser loads again from the same files and parses on its own', async () => {
    const second = await loadParser();
    assert.deepEqual(texts('ls | wc -l'), ['ls', 'wc -l']);
    assert.deepEqual(
      commands(second.parse('npm test')).map((c) => c.text),
      ['npm test'],
    );
  });

  test('1,000 parses of a typical line take well under a few seconds', () => {
    const line = 'cd packages/app && NODE_ENV=test npm run test -- --coverage 2>&1 | tee "test output.log"';
    const started = performance.now();
    // A different line each time: a line parsed lately is not parsed again.
    for (let i = 0; i < 1000; i++) parser.parse(`${line} -${i}`);
    const elapsed = performance.now() - started;
    assert.ok(elapsed < 5000, `1,000 parses took ${elapsed.toFixed(0)} ms`);
  });
});
