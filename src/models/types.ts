import type { ChatMessage } from "../protocol/prompt.ts";
import type { Instance, LoadedTaskSpec } from "../tasks/types.ts";
import type { World } from "../world/world.ts";

/** Token counts of one or more model calls. */
export type Usage = { inputTokens: number; outputTokens: number };

/** One request to a model: the whole conversation so far, plus the instance (for gold/scripted models). */
export type ModelRequest = {
  messages: ChatMessage[];
  instance: Instance;
  spec: LoadedTaskSpec;
  world: World;
  /** "atomic" for the single atomic call; "plan" and "round" for composite attempts. */
  step: "atomic" | "plan" | "round";
  /** 1-based execution round (composite). */
  round?: number;
};

export type ModelResponse = { text: string; usage?: Usage | undefined; raw?: unknown };

/** A model under evaluation (SPEC.md §7). */
export type ModelClient = {
  /** The name given on the command line, e.g. `reference`, `scripted:tests/mutants`, `claude-sonnet`. */
  id: string;
  generate(request: ModelRequest): Promise<ModelResponse>;
};
