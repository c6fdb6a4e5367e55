import { describe, expect, test } from "vitest";
import { extractModule } from "../src/protocol/parse.ts";
import { normaliseTransaction } from "../src/protocol/transaction.ts";

const TO = "0x55d398326f99059fF775485246999027B3197955";
const fence = (lang: string, body: string) => `\`\`\`${lang}\n${body}\n\`\`\``;
const entry = "export async function executeSkill() { return {}; }";

describe("extractModule", () => {
  test.each([
    ["a ts block", `Here you go:\n${fence("ts", entry)}\nDone.`],
    ["a typescript block", fence("typescript", entry)],
    ["an untagged block", fence("", entry)],
    [
      "the one block defining executeSkill among others",
      `${fence("json", '{"a":1}')}\n${fence("bash", "npm i ethers")}\n${fence("ts", entry)}`,
    ],
    ["a tilde fence", `~~~ts\n${entry}\n~~~`],
  ])("accepts %s", (_what, text) => {
    expect(extractModule(text)).toEqual({ ok: true, code: entry });
  });

  test.each([
    ["no block at all", "I would call transfer on USDT.", "no_code_block"],
    ["only a JSON block", fence("json", '{"to": "0x"}'), "no_code_block"],
    ["a python block", fence("python", "def executeSkill(): pass"), "no_code_block"],
    ["a block without executeSkill", fence("ts", "export const x = 1;"), "no_export"],
    [
      "two blocks defining executeSkill",
      `${fence("ts", entry)}\n${fence("ts", entry)}`,
      "multiple_code_blocks",
    ],
    ["a truncated block", `\`\`\`ts\n${entry}`, "no_code_block"],
  ])("classifies %s", (_what, text, reason) => {
    expect(extractModule(text)).toMatchObject({ ok: false, reason });
  });
});

describe("normaliseTransaction", () => {
  test.each([
    ["bigint", 10n ** 18n],
    ["number", 1_000_000],
    ["decimal string", "1000000000000000000"],
    ["hex string", "0xde0b6b3a7640000"],
  ])("reads value given as %s", (_what, value) => {
    const result = normaliseTransaction({ to: TO, value });
    expect(result.ok && result.tx.value).toBe(BigInt(value as never));
  });

  test("keeps gas and EIP-1559 fee fields, drops from/nonce/chainId", () => {
    const result = normaliseTransaction({
      to: TO,
      data: "0x",
      gasLimit: "50000",
      maxFeePerGas: 5n,
      maxPriorityFeePerGas: 1n,
      from: TO,
      nonce: 9,
      chainId: 1,
      type: 2,
    });
    expect(result).toEqual({
      ok: true,
      tx: { to: TO, data: "0x", value: 0n, gas: 50_000n, maxFeePerGas: 5n, maxPriorityFeePerGas: 1n },
    });
  });

  test.each([
    ["null", null, "not_transaction_like"],
    ["a string", "0xabc", "not_transaction_like"],
    ["an array", [{ to: TO }], "not_transaction_like"],
    ["{ success: true }", { success: true }, "missing_to"],
    ["{ type: 'QUERY_RESULT' }", { type: "QUERY_RESULT" }, "missing_to"],
    ["a balances object", { balances: { usdt: "1" } }, "missing_to"],
    ["an answer on a transaction task", { answer: { balance_wei: "1" } }, "missing_to"],
    ["a bad address", { to: "0x1234" }, "not_serialisable"],
    ["odd-length calldata", { to: TO, data: "0xabc" }, "not_serialisable"],
    ["a value in ether", { to: TO, value: "0.5" }, "not_serialisable"],
    ["a negative value", { to: TO, value: -1n }, "not_serialisable"],
    ["a float value", { to: TO, value: 1.5 }, "not_serialisable"],
    ["gasPrice with EIP-1559 fields", { to: TO, gasPrice: 1n, maxFeePerGas: 2n }, "not_serialisable"],
  ])("refuses %s", (_what, value, reason) => {
    expect(normaliseTransaction(value)).toMatchObject({ ok: false, reason });
  });
});
