// Which layers `npm test` runs (and which of their files), and how it reports a layer that ran no test.
export const LAYERS = ['unit', 'integration', 'ui', 'agent', 'external'];

/**
 * The layers named on the command line, in the order given; all of them when none is named. A layer
 * may be followed by `only <files>` or `except <files>` (comma-separated, as testFiles.ts matches
 * them): `npm test -- ui only panel,queue unit`. Anything else (a typo such as `unti`, an option) is
 * an error that lists the valid names, so a typo never silently runs every layer.
 */
export function parseArguments(args) {
  const layers = [];
  const choices = {};
  const unknown = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (LAYERS.includes(arg)) {
      if (!layers.includes(arg)) layers.push(arg);
    } else if (arg === 'only' || arg === 'except') {
      const layer = args[i - 1];
      const files = args[i + 1];
      if (!LAYERS.includes(layer)) throw new Error(`"${arg}" must follow a layer name: npm test -- ui ${arg} panel,queue`);
      if (!files || LAYERS.includes(files)) throw new Error(`"${layer} ${arg}" needs the test files, comma-separated: npm test -- ${layer} ${arg} name,name`);
      choices[layer] = { files: files.split(',').filter(Boolean), except: arg === 'except' };
      i++;
    } else unknown.push(arg);
  }
  if (unknown.length) {
    const names = unknown.map((arg) => `"${arg}"`).join(', ');
    throw new Error(`unknown layer ${names}; the layers are: ${LAYERS.join(', ')} (none named runs them all)`);
  }
  return { layers: layers.length ? layers : [...LAYERS], choices };
}

/** The layers named on the command line (see parseArguments). */
export function parseLayers(args) {
  return parseArguments(args).layers;
}

/** A part of a layer as runLayer.js takes it: [] for the whole layer, or ['only'|'except', 'a,b']. */
export function choiceArgs(choice) {
  return choice ? [choice.except ? 'except' : 'only', choice.files.join(',')] : [];
}

/** Why a layer that finished ran no test, or undefined when it ran some (or did not finish). */
export function emptyReason(result, grep) {
  if (result.crashed || result.passed + result.failed + result.pending > 0) return undefined;
  return grep ? `no test title matches AGENT_QUESTIONS_GREP=${JSON.stringify(grep)}` : 'no tests found';
}
