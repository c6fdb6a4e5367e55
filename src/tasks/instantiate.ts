import { getAddress, keccak256, toHex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { formatUnits, toUnits } from "../expr/decimal.ts";
import { asBigInt, evaluateExpr, parseExpr } from "../expr/expr.ts";
import { pureScope } from "../expr/scope.ts";
import type { World } from "../world/world.ts";
import { fillPlaceholders } from "./placeholders.ts";
import { createRng, instanceSeed } from "./random.ts";
import { type NlLevel, templatesAt } from "./templates.ts";
import type { Instance, ParamValue, TaskSpec } from "./types.ts";

const TEXT_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 ";

export type InstantiateParameters = {
  runSeed: number;
  epoch?: number;
  world: World;
  /** `--nl-level` (paper's NL difficulty); absent = precise, the `templates` field. */
  nlLevel?: NlLevel | undefined;
};

/**
 * Makes a task spec concrete (docs/TASKS.md "Sampling and instance seeds"): the instance seed is a hash of (run seed,
 * task id, epoch); one template is drawn, then every parameter in declaration order. The same inputs
 * give the same instance byte for byte on any machine. At `nlLevel` moderate or vague the template
 * comes from `templatesByLevel[level]`, drawn by a second generator seeded from (instance seed,
 * level), so the main stream (and with it every parameter value) is the same at every level: levels
 * differ in wording only.
 * @throws {Error} when the task has no templates at `nlLevel` (select.ts refuses such runs first).
 */
export async function instantiate(spec: TaskSpec, parameters: InstantiateParameters): Promise<Instance> {
  const epoch = parameters.epoch ?? 0;
  const seed = instanceSeed(parameters.runSeed, spec.id, epoch);
  const rng = createRng(seed);
  const precise = Number(rng.int(0n, BigInt(spec.templates.length - 1)));
  const level = parameters.nlLevel ?? "precise";
  const templates = templatesAt(spec, level);
  if (templates === undefined) throw new Error(`${spec.id} has no ${level} templates`);
  const templateIndex =
    level === "precise"
      ? precise
      : Number(createRng(`${seed}/${level}`).int(0n, BigInt(templates.length - 1)));
  const params: Record<string, ParamValue> = {};
  const secrets: Record<string, `0x${string}`> = {};
  for (const [name, p] of Object.entries(spec.parameters)) {
    switch (p.type) {
      case "decimal": {
        const units = rng.int(toUnits(p.min, p.decimals), toUnits(p.max, p.decimals));
        params[name] = formatUnits(units, p.decimals);
        break;
      }
      case "int": {
        const step = BigInt(p.step ?? 1);
        const k = rng.int(0n, (BigInt(p.max) - BigInt(p.min)) / step);
        params[name] = BigInt(p.min) + k * step;
        break;
      }
      case "pick": {
        const picked = rng.pick(p.values);
        params[name] =
          typeof picked === "number"
            ? BigInt(picked)
            : typeof picked === "string"
              ? picked
              : Object.fromEntries(
                  Object.entries(picked).map(([k, v]) => [k, typeof v === "number" ? BigInt(v) : v]),
                );
        break;
      }
      case "fresh_address": {
        // A seed-derived EOA nobody holds a key for: keccak of the seed material, last 20 bytes.
        const hash = keccak256(toHex(`${seed}/${name}/${rng.bytes32()}`));
        params[name] = getAddress(`0x${hash.slice(-40)}`);
        break;
      }
      case "fresh_account": {
        const key = keccak256(toHex(`${seed}/${name}/key/${rng.bytes32()}`));
        secrets[name] = key;
        params[name] = privateKeyToAddress(key);
        break;
      }
      case "text": {
        const alphabet = p.alphabet ?? TEXT_ALPHABET;
        const length = Number(rng.int(BigInt(p.minLength), BigInt(p.maxLength)));
        let text = "";
        for (let i = 0; i < length; i++) text += alphabet[Number(rng.int(0n, BigInt(alphabet.length - 1)))];
        // A message must read as text: no leading/trailing or doubled spaces.
        params[name] = text.replace(/ {2,}/g, " ").trim().padEnd(p.minLength, "x");
        break;
      }
      case "fixed":
        params[name] = p.value;
        break;
      case "derived": {
        const value = await evaluateExpr(parseExpr(p.expr), pureScope(params, parameters.world, secrets));
        if (p.display === "units") {
          const decimals = p.decimals ?? 18;
          const step = 10n ** BigInt(18 - decimals);
          const wei = asBigInt(value, name);
          params[name] = formatUnits(((wei + step / 2n) / step) * step, 18);
        } else if (p.display === "text") params[name] = String(value);
        else params[name] = asBigInt(value, name);
        break;
      }
    }
  }
  const instance: Instance = {
    taskId: spec.id,
    taskVersion: spec.version,
    split: spec.split,
    kind: spec.kind ?? (spec.answer ? "query" : "transaction"),
    runSeed: parameters.runSeed,
    epoch,
    seed,
    templateIndex,
    params,
    secrets,
    taskText: "",
  };
  const request = fillPlaceholders(templates[templateIndex]!, instance, parameters.world);
  const facts = (spec.facts ?? []).map((fact) => fillPlaceholders(fact, instance, parameters.world));
  instance.taskText = [request, ...facts].join("\n");
  return instance;
}
