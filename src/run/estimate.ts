import { estimateAttemptUsage } from "../models/usage.ts";
import { atomicPrompt, compositePrompt, taskHint } from "../protocol/prompt.ts";
import { toolBudgets, toolDefinitions } from "../protocol/tools/definitions.ts";
import { toolsPrompt } from "../protocol/tools/prompt.ts";
import type { RunModes } from "../runOptions.ts";
import type { LoadedTask } from "../tasks/load.ts";
import type { Instance } from "../tasks/types.ts";
import type { World } from "../world/world.ts";

/**
 * The prior estimate of one attempt's calls and tokens (src/models/usage.ts estimateAttemptUsage),
 * and the opening prompt's length in characters, from that prompt as the model would get it: what `--budget` projects before real instances
 * have paid, and what docs/RUNNING.md "Cost to expect" is computed from (scripts/cost-estimate.ts).
 */
export function estimateInstanceUsage(task: LoadedTask, instance: Instance, world: World, modes?: RunModes) {
  const signTypedData = task.spec.wallet?.signTypedData === true;
  const options = { modes, hint: taskHint(task.spec), set: task.spec.set, signTypedData };
  const tools = modes?.protocol === "tools";
  const prompt = tools
    ? toolsPrompt(
        instance,
        task.spec.answer,
        world,
        { ...toolBudgets(task.spec), kOpt: task.spec.optimal_steps },
        options,
      )
    : task.spec.split === "atomic"
      ? atomicPrompt(instance, task.spec.answer, world, options)
      : compositePrompt(instance, task.spec.answer, world, 1, options);
  const promptChars =
    prompt.reduce((n, m) => n + m.content.length, 0) +
    (tools ? JSON.stringify(toolDefinitions({ signTypedData })).length : 0);
  return {
    promptChars,
    ...estimateAttemptUsage({
      promptChars,
      split: task.spec.split,
      optimalSteps: task.spec.optimal_steps,
      protocol: modes?.protocol,
    }),
  };
}
