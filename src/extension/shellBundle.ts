// dist/shell.js, loaded on first use: the shell parser, the command rules and what reads with them.
import { join } from 'node:path';
import type * as ShellModule from './shellModule';

/** A computed path, so esbuild leaves the require alone: dist/shell.js is its own bundle, beside this one. */
export const shellBundle = (): typeof ShellModule => require(join(__dirname, 'shell.js')) as typeof ShellModule;
