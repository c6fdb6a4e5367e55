/** The usage text of every command (see cliHelp.mjs). */
export declare const HELP: string;
