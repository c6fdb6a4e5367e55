import { readFileSync } from "node:fs";
import path from "node:path";
import AjvModule from "ajv";
import { describe, expect, test } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { generateResultsSchema } from "../scripts/results-schema.mjs";
import { PROJECT_ROOT } from "../src/tasks/load.ts";

const Ajv = AjvModule as unknown as typeof AjvModule.default;
const schemaFile = path.join(PROJECT_ROOT, "src/results/results.schema.json");

describe("results.json schema", () => {
  test("the committed schema is the one the result types generate", () => {
    expect(JSON.parse(readFileSync(schemaFile, "utf8"))).toEqual(JSON.parse(generateResultsSchema()));
  });

  test("rejects a results file that misses a field or has a wrong type", () => {
    const validate = new Ajv({ allErrors: true, strict: false }).compile(
      JSON.parse(readFileSync(schemaFile, "utf8")),
    );
    const ok = { schemaVersion: 1, manifest: {}, summary: {}, instances: [] };
    expect(validate(ok)).toBe(false);
    expect(JSON.stringify(validate.errors)).toContain("packageVersion");
  });
});
