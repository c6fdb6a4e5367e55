import { mutantSuite } from "./mutants.ts";

// Half of the generic mutants as tool-call scripts under `--protocol tools` (tests/tasks/mutants.ts):
// every other task, from the second.
mutantSuite(1, 2, "tools");
