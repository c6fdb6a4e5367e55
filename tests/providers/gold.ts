import { referenceModel } from "../../src/models/reference.ts";
import { atomicPrompt, compositePrompt } from "../../src/protocol/prompt.ts";
import { instantiate } from "../../src/tasks/instantiate.ts";
import type { LoadedTask } from "../../src/tasks/load.ts";
import type { Instance } from "../../src/tasks/types.ts";
import type { World } from "../../src/world/world.ts";
import type { Behavior, FakeRequest } from "./fakeServer.ts";

/**
 * Gold answers for the fake provider: the reference model's responses, found from the conversation
 * alone, as a real model would have to. Each selected instance's opening prompt (system + first user
 * message, built by the same prompt functions the harness uses) identifies the instance; the number of
 * assistant messages so far picks the step (0: the atomic answer or the plan; k: round k).
 */
export async function goldAnswers(p: {
  tasks: LoadedTask[];
  seed: number;
  epochs: number;
  world: World;
}): Promise<(req: FakeRequest) => Promise<Behavior>> {
  const byPrompt = new Map<string, { task: LoadedTask; instance: Instance }>();
  for (const task of p.tasks)
    for (let epoch = 0; epoch < p.epochs; epoch++) {
      const instance = await instantiate(task.spec, { runSeed: p.seed, epoch, world: p.world });
      const prompt =
        task.spec.split === "atomic"
          ? atomicPrompt(instance, task.spec.answer, p.world, {
              set: task.spec.set,
              signTypedData: task.spec.wallet?.signTypedData,
            })
          : compositePrompt(
              instance,
              task.spec.answer,
              p.world,
              task.spec.optimal_steps! * task.spec.max_rounds_multiplier!,
              // a hard task's prompt lists the hard world and its rules, as the harness builds it
              { set: task.spec.set, signTypedData: task.spec.wallet?.signTypedData },
            );
      const key = prompt.map((m) => m.content).join("\n\u0000\n");
      if (byPrompt.has(key)) throw new Error(`two instances share one prompt: ${task.spec.id}`);
      byPrompt.set(key, { task, instance });
    }
  const reference = referenceModel();
  return async (req) => {
    const opening = req.messages.slice(0, 2);
    const found = byPrompt.get(opening.map((m) => m.content).join("\n\u0000\n"));
    if (!found) return { kind: "status", status: 400, body: { error: { message: "fake: unknown prompt" } } };
    const assistant = req.messages.filter((m) => m.role === "assistant").length;
    const { task, instance } = found;
    const step = task.spec.split === "atomic" ? "atomic" : assistant === 0 ? "plan" : "round";
    const { text } = await reference.generate({
      messages: [],
      instance,
      spec: task.spec,
      world: p.world,
      step,
      round: assistant,
    });
    return { kind: "answer", text };
  };
}
