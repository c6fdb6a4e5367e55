import type { ToolDefinition } from "../../models/types.ts";
import type { TaskSpec } from "../../tasks/types.ts";

/*
 * The tool set of `--protocol tools` (docs/PROTOCOLS.md "Tools"): written once here, sent as is to
 * every provider (OpenAI `tools[].function`, Anthropic `tools[]`). Amounts are base-10 strings in the
 * token's base units (wei for BNB): JSON numbers cannot carry a uint256.
 */

const ADDRESS = { type: "string", pattern: "^0x[0-9a-fA-F]{40}$", description: "0x-prefixed address" };
const HEX = { type: "string", pattern: "^0x([0-9a-fA-F]{2})*$", description: "0x-prefixed hex bytes" };
const WEI = {
  type: "string",
  pattern: "^[0-9]{1,78}$",
  description: 'base-10 integer in base units (wei for BNB), e.g. "1000000000000000000"',
};
const SIGNATURE = {
  type: "string",
  minLength: 3,
  maxLength: 2000,
  description:
    'a Solidity function signature in human-readable ABI form, e.g. "balanceOf(address) view returns (uint256)" or "swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)"',
};
const ARGS = {
  type: "array",
  maxItems: 64,
  description:
    "the function's arguments in order: integers as base-10 strings, addresses and bytes as 0x strings, arrays as arrays, tuples as arrays or objects",
};
/** A call's target and its calldata: raw `data`, or a `signature` with its `args` (the harness encodes them). */
const CALL = {
  to: ADDRESS,
  data: HEX,
  signature: SIGNATURE,
  args: ARGS,
  value: { ...WEI, description: "BNB sent with the call, in wei (default 0)" },
};

const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

/** The names of the tools that end an attempt. */
export const ENDING_TOOLS = new Set(["finish", "answer", "refuse"]);

/**
 * The tools offered for one attempt; `sign_typed_data` only when the task's wallet signs EIP-712 data
 * (`wallet.signTypedData`, as the code protocol's endpoint signs only then).
 */
export function toolDefinitions(options: { signTypedData: boolean }): ToolDefinition[] {
  return [
    {
      name: "read_contract",
      description:
        "Calls a contract function at the current state (eth_call from the agent) and returns its decoded return values. Nothing is sent.",
      parameters: object({ to: ADDRESS, signature: SIGNATURE, args: ARGS, value: CALL.value }, [
        "to",
        "signature",
      ]),
    },
    {
      name: "eth_call",
      description: "A raw eth_call from the agent at the current state: returns the return data as hex.",
      parameters: object({ to: ADDRESS, data: HEX, value: CALL.value }, ["to", "data"]),
    },
    {
      name: "get_balance",
      description:
        "An account's balance of BNB (no token) or of an ERC-20 token, in base units, with the token's symbol and decimals. The account defaults to the agent.",
      parameters: object({ token: ADDRESS, account: ADDRESS }),
    },
    {
      name: "get_allowance",
      description: "The ERC-20 allowance owner → spender, in base units. The owner defaults to the agent.",
      parameters: object({ token: ADDRESS, owner: ADDRESS, spender: ADDRESS }, ["token", "spender"]),
    },
    {
      name: "get_chain_state",
      description:
        "The chain id, the latest block's number, timestamp and base fee, the gas price, and the agent's address and BNB balance.",
      parameters: object({}),
    },
    {
      name: "simulate",
      description:
        "Simulates a transaction from the agent at the current state without sending it: success, return data and a gas estimate, or the decoded revert reason. Give `data`, or `signature` and `args`.",
      parameters: object(CALL, ["to"]),
    },
    {
      name: "send_transaction",
      description:
        "Sends a transaction from the agent's wallet: the harness fills nonce, gas (estimate + 25 % unless `gas` is given), fees and chain id, signs and waits for the receipt. Returns status, gas used, fee, the revert reason if it reverted, and the Transfer/Approval events it emitted. Give `data`, or `signature` and `args`.",
      parameters: object(
        {
          ...CALL,
          gas: { ...WEI, description: "gas limit (default: the estimate + 25 %)" },
          maxFeePerGas: { ...WEI, description: "EIP-1559 fee cap per gas in wei (default: the node's)" },
          maxPriorityFeePerGas: { ...WEI, description: "EIP-1559 tip per gas in wei (default: the node's)" },
        },
        ["to"],
      ),
    },
    ...(options.signTypedData
      ? [
          {
            name: "sign_typed_data",
            description:
              "Signs EIP-712 typed data with the agent's key (eth_signTypedData_v4) on a chain-56 domain and returns the 65-byte signature.",
            parameters: object(
              {
                domain: { type: "object" },
                types: {
                  type: "object",
                  description: "the struct types (EIP712Domain may be left out)",
                },
                primaryType: { type: "string" },
                message: { type: "object" },
              },
              ["domain", "types", "primaryType", "message"],
            ),
          },
        ]
      : []),
    {
      name: "answer",
      description:
        "Ends the attempt with the answer to a query task: an object with exactly the fields the task asks for.",
      parameters: object({ answer: { type: "object" } }, ["answer"]),
    },
    {
      name: "refuse",
      description:
        "Ends the attempt without doing (the rest of) the request, with the reason: for a request that must not be executed as asked.",
      parameters: object({ reason: { type: "string", minLength: 1, maxLength: 2000 } }, ["reason"]),
    },
    {
      name: "finish",
      description:
        "Ends the attempt: the request is done. A multi-step task that asks for answer fields gives them in `answer`.",
      parameters: object({ answer: { type: "object" } }),
    },
  ];
}

/** Turns an atomic attempt may take; a composite gets 4 more per execution round of its budget. */
export const TOOL_TURNS_ATOMIC = 12;
/** Transactions an atomic attempt may send; a composite may send its round budget (K_opt × multiplier) plus this. */
export const TOOL_SENDS_ATOMIC = 4;

/** The turn and transaction budgets of a task under `--protocol tools` (docs/PROTOCOLS.md "Budgets"). */
export function toolBudgets(spec: Pick<TaskSpec, "split" | "optimal_steps" | "max_rounds_multiplier">): {
  turns: number;
  sends: number;
} {
  if (spec.split !== "composite") return { turns: TOOL_TURNS_ATOMIC, sends: TOOL_SENDS_ATOMIC };
  const rounds = spec.optimal_steps! * spec.max_rounds_multiplier!;
  return { turns: TOOL_TURNS_ATOMIC + 4 * rounds, sends: rounds + TOOL_SENDS_ATOMIC };
}
