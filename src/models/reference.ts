import { ModelProviderError } from "../errors.ts";
import { fillPlaceholders } from "../tasks/placeholders.ts";
import type { GoldActions, ModelClient, ToolCall } from "./types.ts";

/**
 * The `reference` model (README "Write your own task", gold answers): answers with the gold responses shipped in each task spec
 * (atomic: `reference.response`; composite: `reference.plan`, then `reference.rounds[r − 1]` in
 * round r), placeholders filled from the instance. Every instance must score 100 with it.
 *
 * Under `--protocol paper` (README "Comparing with the paper", protocol rows) the plan is the gold
 * plan in that protocol's shape, {"plan": {"total_steps": n, "subtasks": [...]}}, one subtask per
 * gold round (its description the gold plan's step), and subtask i is answered with gold round i.
 */
export function referenceModel(): ModelClient {
  return {
    id: "reference",
    replaysGold: true,
    async generate({ spec, instance, world, step, round, protocol, subtask, gold: actions }) {
      if (protocol === "tools") {
        if (!actions) throw new ModelProviderError(`task ${spec.id}: no gold actions to replay`);
        return { text: "", toolCalls: goldToolCalls(actions, spec.split) };
      }
      const gold = spec.reference;
      const fill = (text: string) => fillPlaceholders(text, instance, world);
      if (protocol === "paper" && step === "plan" && gold?.plan && gold.rounds?.length) {
        const steps = goldPlanSteps(fill(gold.plan));
        const subtasks = gold.rounds.map((_, i) => ({
          step: i + 1,
          description: steps[i] ?? `gold round ${i + 1}`,
          action_type: "execute",
          contract: "",
          details: "",
        }));
        return {
          text: `\`\`\`json\n${JSON.stringify({ plan: { total_steps: subtasks.length, subtasks } })}\n\`\`\``,
        };
      }
      const r = protocol === "paper" ? (subtask ?? round ?? 1) : (round ?? 1);
      const text =
        step === "atomic"
          ? gold?.response
          : step === "plan"
            ? gold?.plan
            : (gold?.rounds?.[r - 1] ?? '```json\n{"submit": true}\n```');
      if (!text)
        throw new ModelProviderError(
          `task ${spec.id} has no reference ${step === "atomic" ? "response" : step}`,
        );
      return { text: fill(text) };
    },
  };
}

/** The steps of a gold plan (gold/plan.md: a ```json block {"plan": ["step", …]}); [] when unreadable. */
function goldPlanSteps(plan: string): string[] {
  try {
    const parsed = JSON.parse(/```(?:json)?\s*([\s\S]*?)```/.exec(plan)?.[1] ?? plan) as { plan?: unknown };
    return Array.isArray(parsed.plan) ? parsed.plan.map(String) : [];
  } catch {
    return [];
  }
}

/** The gold run's actions as one turn of tool calls (ids `gold-1`, `gold-2`, …). */
function goldToolCalls(actions: GoldActions, split: string): ToolCall[] {
  const calls: { name: string; arguments: unknown }[] = actions.steps.map((step) =>
    step.kind === "sign"
      ? { name: "sign_typed_data", arguments: step.typedData }
      : { name: "send_transaction", arguments: step.request },
  );
  if (actions.refusal) calls.push({ name: "refuse", arguments: { reason: actions.refusal.reason } });
  else if (actions.answer && split !== "composite")
    calls.push({ name: "answer", arguments: { answer: actions.answer } });
  else calls.push({ name: "finish", arguments: actions.answer ? { answer: actions.answer } : {} });
  return calls.map((c, i) => ({ id: `gold-${i + 1}`, name: c.name, arguments: JSON.stringify(c.arguments) }));
}
