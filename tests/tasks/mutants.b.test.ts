import { mutantSuite } from "./mutants.ts";

// Half of the generic mutants (tests/tasks/mutants.ts): every other task, from the second.
mutantSuite(1, 2);
