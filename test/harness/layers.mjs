// Which layers `npm test` runs, and how it reports a layer that ran no test.
export const LAYERS = ['unit', 'integration', 'ui', 'agent', 'external'];

/**
 * The layers named on the command line, in the order given; all of them when none is named.
 * Anything else (a typo such as `unti`, an option) is an error that lists the valid names, so a
 * typo never silently runs every layer.
 */
export function parseLayers(args) {
  const unknown = args.filter((arg) => !LAYERS.includes(arg));
  if (unknown.length) {
    const names = unknown.map((arg) => `"${arg}"`).join(', ');
    throw new Error(`unknown layer ${names}; the layers are: ${LAYERS.join(', ')} (none named runs them all)`);
  }
  return args.length ? [...new Set(args)] : [...LAYERS];
}

/** Why a layer that finished ran no test, or undefined when it ran some (or did not finish). */
export function emptyReason(result, grep) {
  if (result.crashed || result.passed + result.failed + result.pending > 0) return undefined;
  return grep ? `no test title matches AGENT_QUESTIONS_GREP=${JSON.stringify(grep)}` : 'no tests found';
}
