/**
 * The first phases of fork provisioning (README "Fork mode"): the fork must be what the benchmark
 * runs on, then the clock is pinned and the accounts get gas.
 */
import { type Hex, numberToHex, parseEther } from "viem";
import { ChainError } from "../../../errors.ts";
import { NATIVE_WRAPPER } from "../../catalogue.ts";
import { primeWorldClock } from "../../pool.ts";
import { type Provisioning, stakedBy } from "../context.ts";

/** BNB the treasury gets for gas, liquidity and the hard world while provisioning. */
const TREASURY_BNB = "1000000";
/** BNB each of the agent and rich gets for gas while provisioning, beyond its deposits. */
const ACCOUNT_GAS_BNB = "1";
/** The accounts that send while provisioning besides the treasury (their BNB is settled at the end). */
const SENDERS = ["agent", "rich"] as const;

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
 * Pins the clock (1 s per block) and gives the accounts BNB to provision with: the treasury
 * {@link TREASURY_BNB}; the agent and rich twice their snapshot BNB, plus the WBNB they wrap by
 * deposit, plus {@link ACCOUNT_GAS_BNB} for gas (so a small or absent snapshot balance still pays
 * for their deposits, approvals and stakes). {@link settleNativeBalances} sets the exact amounts.
 *
 * Reads: `accounts`, `nativeBalances`, `holdings`, `stakes`. Writes: the fork's clock and BNB balances.
 */
export async function fundGas(p: Provisioning): Promise<void> {
  await primeWorldClock(p.url);
  await p.rpc("anvil_setBalance", [p.accounts.treasury, numberToHex(parseEther(TREASURY_BNB))]);
  for (const name of SENDERS) {
    const wrapped = p.holdings
      .filter((h) => h.holder === name && h.token === NATIVE_WRAPPER)
      .reduce((sum, h) => sum + parseEther(h.amount) + stakedBy(p.stakes, name, h.token), 0n);
    const snapshot = parseEther(p.nativeBalances[name] ?? "0");
    const funds = 2n * snapshot + wrapped + parseEther(ACCOUNT_GAS_BNB);
    await p.rpc("anvil_setBalance", [p.accounts[name], numberToHex(funds)]);
  }
}

/**
 * The snapshot's BNB, once provisioning has paid its gas: the agent and rich hold exactly their
 * `nativeBalances` amount (none when not named); the treasury its amount when named, else what
 * provisioning left it.
 *
 * Reads: `accounts`, `nativeBalances`. Writes: the fork's BNB balances.
 */
export async function settleNativeBalances(p: Provisioning): Promise<void> {
  const { treasury, ...named } = p.nativeBalances;
  for (const name of SENDERS)
    await p.rpc("anvil_setBalance", [p.accounts[name], numberToHex(parseEther(named[name] ?? "0"))]);
  if (treasury !== undefined)
    await p.rpc("anvil_setBalance", [p.accounts.treasury, numberToHex(parseEther(treasury))]);
}
