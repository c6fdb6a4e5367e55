import { CHECKS } from "./registry.ts";

/**
 * The JSON Schema (draft-07) of one entry of a task's `checks`, generated from the check definitions:
 * `check` is one of their names (with each one-line description for editors), and `args` is
 * validated against that check's declared arguments (an `if`/`then` per name: a union keyed on
 * `check`), so an editor completes both and flags a misspelled argument.
 */
export function checkEntrySchema(): Record<string, unknown> {
  const names = Object.keys(CHECKS);
  return {
    type: "object",
    required: ["check"],
    additionalProperties: false,
    properties: {
      check: {
        enum: names,
        enumDescriptions: names.map((n) => CHECKS[n]!.description),
        description: "which check (src/validators); one line each in tasks/README.md",
      },
      name: {
        type: "string",
        minLength: 1,
        description: "the name results.json reports (default: the check); keep it stable once published",
      },
      weight: { type: "integer", minimum: 0, maximum: 100 },
      critical: { type: "boolean", description: "★: a failure caps the atomic score at 50" },
      args: { type: "object" },
    },
    allOf: names.map((name) => {
      const d = CHECKS[name]!;
      const args: Record<string, unknown> = {
        type: "object",
        description: d.description,
        additionalProperties: false,
        properties: d.args,
        examples: [d.example],
      };
      if (d.required?.length) args.required = d.required;
      return {
        if: { properties: { check: { const: name } }, required: ["check"] },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable
        then: { properties: { args }, ...(d.required?.length ? { required: ["args"] } : {}) },
      };
    }),
  };
}

/** `base` (the task schema) with its `definitions.check` replaced by the generated one. */
export function taskSchema(base: Record<string, unknown>): Record<string, unknown> {
  const definitions = { ...(base.definitions as Record<string, unknown>), check: checkEntrySchema() };
  return { ...base, definitions };
}
