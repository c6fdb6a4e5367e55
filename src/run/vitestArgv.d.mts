/** The run flags Vitest does not take itself (see vitestArgv.mjs). */
export declare const QUESTBENCH_ONLY_FLAGS: readonly string[];
/** The one-line answer to a questbench run flag before `--` on a Vitest command line, or undefined. */
export declare function misplacedRunFlag(argv: readonly string[]): string | undefined;
/** Exits with that line and code 2 when there is one. */
export declare function exitOnMisplacedRunFlag(argv: readonly string[]): void;
