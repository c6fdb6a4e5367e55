import type { ChatMessage } from "../../models/types.ts";
import type { AnswerSpec, Instance } from "../../tasks/types.ts";
import { CATALOGUE } from "../../world/catalogue.ts";
import type { World } from "../../world/world.ts";
import { describeAnswer, environmentPrompt, type PromptModes, withHint } from "../prompt.ts";

/**
 * The role of `--protocol tools` (docs/PROTOCOLS.md "Conversation"): the model acts through the tools
 * over turns and ends with one of the ending tools.
 */
const TOOLS_ROLE = `You are a wallet agent on BNB Smart Chain acting for the user through tools.
Call tools to read the chain, simulate and send transactions from the user's wallet; each call's result comes back to you. Several calls in one turn run in order.
End the attempt with exactly one of: finish (the request is done), answer (a query task's answer), refuse (the request must not be executed as asked).
Everything the attempt sent or signed is judged against a correct answer on the same chain state: do what is asked, with the protection the user asked for, and nothing else.`;

/** How an attempt ends and what it may spend: the ending contract and the budgets. */
function contractOf(
  instance: Instance,
  answer: AnswerSpec | undefined,
  budget: { turns: number; sends: number; kOpt: number | undefined },
): string {
  const ending =
    instance.kind === "query" && answer
      ? describeAnswer(
          answer,
          "This is a query task: nothing is sent. Read the chain and call answer with exactly these fields:",
        )
      : answer
        ? describeAnswer(answer, "When the request is done, call finish with an answer holding these fields:")
        : "This is a transaction task: send what the request needs, then call finish.";
  const steps =
    budget.kOpt !== undefined
      ? ` It takes several transactions: fewer score higher (the score decays past the fewest a correct answer needs, K_opt / K_act, signatures counted).`
      : "";
  return `${ending}\n\nBudget: at most ${budget.turns} turns and ${budget.sends} transactions.${steps}`;
}

/** The opening messages of a `--protocol tools` attempt: role (system), then environment + task + contract (user). */
export function toolsPrompt(
  instance: Instance,
  answer: AnswerSpec | undefined,
  world: World,
  budget: { turns: number; sends: number; kOpt: number | undefined },
  mode?: PromptModes,
): ChatMessage[] {
  return [
    { role: "system", content: TOOLS_ROLE },
    {
      role: "user",
      content: `${environmentPrompt(world, CATALOGUE, mode?.modes, mode?.set, mode?.signTypedData)}\n\nTask:\n${withHint(instance.taskText, mode)}\n\n${contractOf(instance, answer, budget)}`,
    },
  ];
}
