/**
 * The first phases of fork provisioning (README "Fork mode"): the fork must be what the benchmark
 * runs on, then the clock is pinned and the accounts get gas.
 */
import { type Hex, numberToHex, parseEther } from "viem";
import { ChainError } from "../../../errors.ts";
import { type AccountName, NATIVE_BALANCES } from "../../catalogue.ts";
import { primeWorldClock } from "../../pool.ts";
import type { Provisioning } from "../context.ts";

/**
 * Preconditions: the fork is BNB Smart Chain, the chain the caller asked for, and has code at every
 * canonical contract. Without these no task can run, so they throw.
 *
 * Reads: the fork's chain id and the code at `canonical`. Writes: nothing.
 * @param chainId the chain id the caller expects the fork to answer.
 * @throws {ChainError} when the fork is not chain 56, is not `chainId`, or lacks a canonical contract.
 */
export async function checkFork(p: Provisioning, chainId: number): Promise<void> {
  const remoteChainId = Number(await p.rpc<Hex>("eth_chainId"));
  if (remoteChainId !== 56)
    throw new ChainError(
      `Fork mode needs BNB Smart Chain (chain id 56); the fork is chain ${remoteChainId}.`,
    );
  if (chainId !== remoteChainId)
    throw new ChainError(
      `Fork provisioning was asked for chain ${chainId}; the fork is chain ${remoteChainId}.`,
    );
  const missingCode: string[] = [];
  for (const [key, address] of Object.entries(p.canonical))
    if ((await p.rpc<Hex>("eth_getCode", [address, "latest"])) === "0x")
      missingCode.push(`${key} ${address}`);
  if (missingCode.length)
    throw new ChainError("The fork lacks canonical BSC contracts.", {
      details: `No code at ${missingCode.join(", ")}.`,
    });
}

/**
 * Pins the clock (1 s per block) and gives the accounts gas: the treasury a million BNB, each
 * account twice its snapshot BNB (set to the exact amounts by {@link settleNativeBalances}).
 *
 * Reads: `accounts`. Writes: the fork's clock and BNB balances.
 */
export async function fundGas(p: Provisioning): Promise<void> {
  await primeWorldClock(p.url);
  await p.rpc("anvil_setBalance", [p.accounts.treasury, numberToHex(parseEther("1000000"))]);
  for (const [name, amount] of Object.entries(NATIVE_BALANCES))
    await p.rpc("anvil_setBalance", [p.accounts[name as AccountName], numberToHex(2n * parseEther(amount!))]);
}

/**
 * The snapshot's BNB: each account's exact amount, once provisioning has paid its gas.
 *
 * Reads: `accounts`. Writes: the fork's BNB balances.
 */
export async function settleNativeBalances(p: Provisioning): Promise<void> {
  for (const [name, amount] of Object.entries(NATIVE_BALANCES))
    await p.rpc("anvil_setBalance", [p.accounts[name as AccountName], numberToHex(parseEther(amount!))]);
}
