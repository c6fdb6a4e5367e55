import { mutantSuite } from "./mutants.ts";

// Half of the generic mutants as tool-call scripts under `--protocol tools` (tests/tasks/mutants.ts):
// every other task, from the first.
mutantSuite(0, 2, "tools");
