/**
 * The canonical tokens on a fork (README "Fork mode"): their storage slots found by probing, the
 * treasury's and the accounts' balances written there, WBNB wrapped by real deposits, and the
 * router approved for the treasury's tokens.
 */
import { maxUint256, parseEther } from "viem";
import { ChainError } from "../../../errors.ts";
import { erc20Abi } from "../../abis.ts";
import { type CanonicalTokenKey, type Holder, type Holding, NATIVE_WRAPPER } from "../../catalogue.ts";
import {
  holdingStep,
  isAccount,
  type ProbedSlots,
  type Provisioning,
  stakedBy,
  TREASURY_TOKENS,
  TREASURY_WBNB,
  wrapperOf,
} from "../context.ts";
import { findAllowanceSlot, findBalanceSlot, writeTokenBalance } from "../slots.ts";

/**
 * Probes each canonical token's balance and allowance slots ({@link findBalanceSlot}).
 *
 * Reads: `probedTokens`, `canonical`. Writes: `errors` (a token whose slot was not found); the
 * probes restore every word they touch.
 * @returns the slots found, per token (null: not found).
 */
export async function probeSlots(p: Provisioning): Promise<ProbedSlots> {
  const slots = {} as ProbedSlots;
  for (const key of p.probedTokens) {
    const balance = await p.step(`probe ${key} balance`, () =>
      findBalanceSlot({ url: p.url, token: p.canonical[key]! }),
    );
    const allowance = await p.step(`probe ${key} allowance`, () =>
      findAllowanceSlot({ url: p.url, token: p.canonical[key]! }),
    );
    slots[key] = {
      balance: balance ? { slot: balance.slot, layout: balance.layout, offset: balance.offset } : null,
      allowance: allowance ? { slot: allowance.slot, layout: allowance.layout } : null,
    };
  }
  return slots;
}

/**
 * Storage writes: the treasury gets {@link TREASURY_TOKENS} of each canonical token but the native
 * wrapper, each account its holdings of them (with what it stakes of one, for it to deposit).
 *
 * Reads: `slots`, `holdings`, `stakes`, `probedTokens`. Writes: token balances on the fork; `errors`.
 * @returns the holdings it handled (planted, or their failure recorded).
 */
export async function fundByStorage(p: Provisioning, slots: ProbedSlots): Promise<Holding[]> {
  const fund = (key: CanonicalTokenKey, holder: Holder, amount: bigint) =>
    p.step(holdingStep(holder, key), async () => {
      const slot = slots[key].balance;
      if (!slot) throw new ChainError(`${key}: no balance slot found by probing.`);
      const to = p.need(p.addressOf(holder), holder);
      await writeTokenBalance({
        url: p.url,
        token: p.canonical[key]!,
        slot,
        holder: to,
        amount,
      });
    });
  const isProbed = (key: string): key is CanonicalTokenKey => (p.probedTokens as string[]).includes(key);
  const planted: Holding[] = [];
  for (const key of p.probedTokens)
    if (key !== NATIVE_WRAPPER) await fund(key, "treasury", parseEther(TREASURY_TOKENS));
  for (const h of p.holdings)
    if (h.token !== NATIVE_WRAPPER && isProbed(h.token) && isAccount(h.holder)) {
      await fund(h.token, h.holder, parseEther(h.amount) + stakedBy(p.stakes, h.holder, h.token));
      planted.push(h);
    }
  return planted;
}

/**
 * WBNB stays fully backed (docs/TASKS.md "Accounts and holdings"): the treasury wraps
 * {@link TREASURY_WBNB} and each account its WBNB holding (with what it stakes of it) by real
 * deposits, never storage writes.
 *
 * Reads: `holdings`, `stakes`, `canonical`. Writes: WBNB deposits on the fork; `errors`.
 * @returns the WBNB holdings it handled.
 */
export async function wrapNative(p: Provisioning): Promise<Holding[]> {
  const { wrapper, wrapperAbi } = wrapperOf(p);
  await p.step("treasury WBNB deposit", () =>
    p.call(p.signer.treasury, wrapper, wrapperAbi, "deposit", [], parseEther(TREASURY_WBNB)),
  );
  const planted: Holding[] = [];
  for (const h of p.holdings.filter((h) => h.token === NATIVE_WRAPPER)) {
    planted.push(h);
    await p.step(holdingStep(h.holder, h.token), () => {
      if (!isAccount(h.holder)) throw new ChainError(`Only an account can hold ${h.token} by deposit.`);
      const amount = parseEther(h.amount) + stakedBy(p.stakes, h.holder, h.token);
      return p.call(p.signer[h.holder], wrapper, wrapperAbi, "deposit", [], amount);
    });
  }
  return planted;
}

/**
 * The treasury approves the router for every canonical token without limit (it seeds and mints LP).
 *
 * Reads: `probedTokens`, `canonical`. Writes: the treasury's allowances on the fork; `errors`.
 */
export async function approveRouter(p: Provisioning): Promise<void> {
  const router = p.canonical.pancake_router!;
  for (const key of p.probedTokens)
    await p.step(`treasury approves the router for ${key}`, () =>
      p.call(p.signer.treasury, p.canonical[key]!, erc20Abi, "approve", [router, maxUint256]),
    );
}
