// Types for the plain-JavaScript harness, so TypeScript tests can use it.
/** Copies the fixture workspace to `<into>/workspace`, makes it a repository, and returns its path. */
export function fixtureWorkspace(root: string, into: string): string;
