import { mutantSuite } from "./mutants.ts";

// Half of the generic mutants (tests/tasks/mutants.ts): every other task, from the first.
mutantSuite(0, 2);
