import { describe, expect, test } from "vitest";
import { CONTROL_VOCABULARY, readControlReply } from "../src/protocol/control.ts";
import { PAPER_CONTROL_VOCABULARY } from "../src/protocol/paperControl.ts";

// One reader, two vocabularies (docs/ARCHITECTURE.md "The attempt's contract", docs/SCORING.md
// "Composite tasks"): the same reply is read the same way up to which JSON is a control message.
const module = "```ts\nexport async function executeSkill() { return { answer: { x: 1 } }; }\n```";

describe("readControlReply", () => {
  test("a query is a control message of the paper's vocabulary only", () => {
    const reply = '{"action":"query","query_type":"token_balance"}';
    expect(readControlReply(reply, PAPER_CONTROL_VOCABULARY).control).toMatchObject({ kind: "query" });
    expect(readControlReply(reply, CONTROL_VOCABULARY).invalid?.reason).toBe("no_code_block");
  });

  test("error_detected is the paper's error report; ours does not claim it", () => {
    const reply = `${module}\n{"error_detected":true,"error_type":"X","error_message":"m"}`;
    expect(readControlReply(reply, PAPER_CONTROL_VOCABULARY).control).toMatchObject({
      kind: "error",
      type: "X",
    });
    const ours = readControlReply(reply, CONTROL_VOCABULARY);
    expect(ours.control).toBeUndefined();
    expect(ours.code).toContain("executeSkill");
  });

  test("module and submit, two controls, unparseable JSON: the same under both", () => {
    for (const vocabulary of [CONTROL_VOCABULARY, PAPER_CONTROL_VOCABULARY]) {
      const both = readControlReply(`${module}\n\`\`\`json\n{"submit": true}\n\`\`\``, vocabulary);
      expect(both.code).toContain("executeSkill");
      expect(both.control).toEqual({ kind: "submit", answer: {} });
      expect(readControlReply('{"submit": true} {"submit": true}', vocabulary).invalid?.message).toBe(
        "more than one control JSON in one response",
      );
      expect(readControlReply('```json\n{"submit": true,\n```', vocabulary).invalid?.reason).toBe(
        "invalid_control_json",
      );
    }
  });
});
