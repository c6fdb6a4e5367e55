/**
 * The rest of the snapshot on a fork (docs/TASKS.md "Accounts and holdings"): the holdings not
 * planted yet, PancakeSquad #1 moved to the agent, the allowances, and the stakes an hour before the
 * snapshot.
 */
import { type Address, encodeFunctionData, getAddress, type Hex, numberToHex, parseEther } from "viem";
import { erc20Abi, erc721Abi } from "../../abis.ts";
import { type Holding, STAKE_AGE_SECONDS, WORLD_FACTS } from "../../catalogue.ts";
import { holdingStep, lower, type Provisioning, stakedBy } from "../context.ts";

/**
 * Plants every holding no earlier phase handled by a transfer from the treasury (a staked amount
 * included, for its holder to deposit).
 *
 * Reads: `holdings`, `stakes`, `contracts`. Writes: token balances on the fork; `errors`.
 * @param planted the holdings earlier phases handled.
 */
export async function plantRemainingHoldings(p: Provisioning, planted: ReadonlySet<Holding>): Promise<void> {
  for (const h of p.holdings.filter((h) => !planted.has(h)))
    await p.step(holdingStep(h.holder, h.token), () =>
      p.call(p.signer.treasury, p.need(p.contracts[h.token], h.token), erc20Abi, "transfer", [
        p.need(p.addressOf(h.holder), h.holder),
        parseEther(h.amount) + stakedBy(p.stakes, h.holder, h.token),
      ]),
    );
}

/**
 * PancakeSquad #1 moves from its holder on the fork to the agent: the holder is impersonated (and
 * lent gas), then left as it was.
 *
 * Reads: `canonical.pancake_squad`. Writes: the NFT's owner on the fork; `errors`.
 * @returns the holder of PancakeSquad #1 before the move (null when it could not be read).
 */
export async function moveSquadToAgent(p: Provisioning): Promise<Address | null> {
  let squadOwner: Address | null = null;
  const squad = p.canonical.pancake_squad!;
  const squadId = BigInt(WORLD_FACTS.pancakeSquadAgentTokenId);
  const agent = p.accounts.agent;
  await p.step("PancakeSquad #1 to the agent", async () => {
    const owner = getAddress(await p.read<Address>(squad, erc721Abi, "ownerOf", [squadId]));
    squadOwner = owner;
    if (lower(owner) === lower(agent)) return;
    const balance = await p.client.getBalance({ address: owner });
    await p.rpc("anvil_impersonateAccount", [owner]);
    try {
      await p.rpc("anvil_setBalance", [owner, numberToHex(balance + parseEther("1"))]);
      const hash = await p.rpc<Hex>("eth_sendTransaction", [
        {
          from: owner,
          to: squad,
          data: encodeFunctionData({
            abi: erc721Abi,
            functionName: "transferFrom",
            args: [owner, agent, squadId],
          }),
          gas: numberToHex(500_000),
        },
      ]);
      await p.receipt(hash, "PancakeSquad #1 transfer");
    } finally {
      await p.rpc("anvil_stopImpersonatingAccount", [owner]);
      await p.rpc("anvil_setBalance", [owner, numberToHex(balance)]);
    }
  });
  return squadOwner;
}

/**
 * The snapshot's allowances, each granted by its owner.
 *
 * Reads: `allowances`, `contracts`, `signer`. Writes: allowances on the fork; `errors`.
 */
export async function grantAllowances(p: Provisioning): Promise<void> {
  for (const a of p.allowances)
    await p.step(`allowance ${a.owner} ${a.token}`, () =>
      p.call(p.signer[a.owner], p.need(p.contracts[a.token], a.token), erc20Abi, "approve", [
        p.need(p.addressOf(a.spender), a.spender),
        parseEther(a.amount),
      ]),
    );
}

/**
 * The stakes: each holder approves and deposits its amount; the snapshot block is then mined
 * {@link STAKE_AGE_SECONDS} after the last stake (so rewards are pending), or at once when no
 * stake was made.
 *
 * Reads: `stakes`, `contracts`, `catalogue` (the pool's ABI), `signer`. Writes: stakes and one mined block
 * on the fork; `errors`.
 * @returns the last stake's block timestamp (0 when none was made).
 */
export async function makeStakes(p: Provisioning): Promise<number> {
  let stakeTimestamp = 0;
  for (const s of p.stakes)
    await p.step(`stake ${s.holder} ${s.pool}`, async () => {
      const [pool, token] = [p.need(p.contracts[s.pool], s.pool), p.need(p.contracts[s.token], s.token)];
      const amount = parseEther(s.amount);
      await p.call(p.signer[s.holder], token, erc20Abi, "approve", [pool, amount]);
      const { blockNumber } = await p.call(p.signer[s.holder], pool, p.catalogue[s.pool]!.abi!, "deposit", [
        amount,
      ]);
      stakeTimestamp = Number((await p.client.getBlock({ blockNumber })).timestamp);
    });
  if (stakeTimestamp) await p.rpc("evm_setNextBlockTimestamp", [stakeTimestamp + STAKE_AGE_SECONDS]);
  await p.rpc("evm_mine");
  return stakeTimestamp;
}
