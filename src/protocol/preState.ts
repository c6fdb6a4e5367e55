import { type Address, encodeFunctionData, getAddress, type Hex, numberToHex, pad, parseAbi } from "viem";
import { ChainError } from "../errors.ts";
import { chainScope } from "../expr/chainScope.ts";
import { asBigInt, type Expr, evaluateExpr, type Value } from "../expr/expr.ts";
import type { CompiledAction } from "../tasks/actions.ts";
import type { Instance } from "../tasks/types.ts";
import { minedReceipt } from "../world/receipt.ts";
import type { World } from "../world/world.ts";
import type { ChainClients } from "./chain.ts";

const erc20 = parseAbi([
  "function transfer(address, uint256) returns (bool)",
  "function approve(address, uint256) returns (bool)",
  "function balanceOf(address) view returns (uint256)",
]);

/**
 * Applies an instance's pre-state on a clean chain. Third parties act through Anvil impersonation;
 * every sender's BNB is restored after its transaction so pre-state fees leak into no balance.
 */
export async function applyPreState(
  clients: ChainClients,
  world: World,
  instance: Instance,
  actions: CompiledAction[],
): Promise<void> {
  const scope = chainScope(clients.public, instance.params, world);
  const ev = async (e: Expr | undefined): Promise<Value> => (e === undefined ? 0n : evaluateExpr(e, scope));
  const num = async (e: Expr | undefined, what: string) => asBigInt(await ev(e), what);
  const address = async (e: Expr | undefined): Promise<Address> => getAddress(String(await ev(e)));

  const sendAs = async (from: Address, to: Address, data: Hex, value = 0n) => {
    const balance = await clients.public.getBalance({ address: from });
    await clients.test.impersonateAccount({ address: from });
    await clients.test.setBalance({ address: from, value: balance + value + 10n ** 18n });
    const hash = (await clients.test.request({
      method: "eth_sendTransaction",
      params: [{ from, to, data, value: numberToHex(value), gas: numberToHex(3_000_000) }],
    } as never)) as Hex;
    const receipt = await minedReceipt(clients.public, hash, `a pre-state transaction of ${instance.taskId}`);
    await clients.test.stopImpersonatingAccount({ address: from });
    if (receipt.status !== "success")
      throw new ChainError(`pre-state transaction of ${instance.taskId} from ${from} to ${to} reverted`);
    await clients.test.setBalance({ address: from, value: balance });
  };

  for (const a of actions) {
    const x = a.exprs;
    switch (a.action) {
      case "setNativeBalance":
        await clients.test.setBalance({
          address: await address(x.account),
          value: await num(x.amount, "amount"),
        });
        break;
      case "setTokenBalance": {
        const [token, account, target] = [
          await address(x.token),
          await address(x.account),
          await num(x.amount, "amount"),
        ];
        const current = (await clients.public.readContract({
          address: token,
          abi: erc20,
          functionName: "balanceOf",
          args: [account],
        })) as bigint;
        if (target > current)
          await sendAs(
            getAddress(world.treasury.address),
            token,
            encodeFunctionData({ abi: erc20, functionName: "transfer", args: [account, target - current] }),
          );
        if (target < current)
          await sendAs(
            account,
            token,
            encodeFunctionData({
              abi: erc20,
              functionName: "transfer",
              args: [getAddress(world.treasury.address), current - target],
            }),
          );
        break;
      }
      case "transferToken":
        await sendAs(
          await address(x.from),
          await address(x.token),
          encodeFunctionData({
            abi: erc20,
            functionName: "transfer",
            args: [await address(x.to), await num(x.amount, "amount")],
          }),
        );
        break;
      case "approve":
        await sendAs(
          await address(x.owner),
          await address(x.token),
          encodeFunctionData({
            abi: erc20,
            functionName: "approve",
            args: [await address(x.spender), await num(x.amount, "amount")],
          }),
        );
        break;
      case "send": {
        const args: Value[] = [];
        for (const e of a.callArgs) args.push(await ev(e));
        const callArgs = args.map((v) =>
          typeof v === "string" && /^0x[0-9a-fA-F]{40}$/.test(v) ? getAddress(v) : v,
        );
        const data: Hex = a.fn ? encodeFunctionData({ abi: [a.fn], args: callArgs } as never) : "0x";
        await sendAs(
          await address(x.from),
          await address(x.to),
          data,
          x.value ? await num(x.value, "value") : 0n,
        );
        break;
      }
      case "setStorage":
        await clients.test.setStorageAt({
          address: await address(x.address),
          index: pad(numberToHex(await num(x.slot, "slot"))),
          value: pad(numberToHex(await num(x.value, "value"))),
        });
        break;
      case "mine":
        await clients.test.mine({ blocks: Number(await num(x.blocks, "blocks")) });
        break;
      case "increaseTime": {
        // evm_increaseTime has no effect while the world's 1 s block interval is set (Anvil stamps
        // the next block parent + 1): pin the next block's timestamp instead.
        const latest = await clients.public.getBlock();
        await clients.test.setNextBlockTimestamp({
          timestamp: latest.timestamp + (await num(x.seconds, "seconds")),
        });
        await clients.test.mine({ blocks: 1 });
        break;
      }
      case "setNonce":
        await clients.test.setNonce({
          address: await address(x.account),
          nonce: Number(await num(x.nonce, "nonce")),
        });
        break;
      case "setNextBaseFee":
        await clients.test.setNextBlockBaseFeePerGas({ baseFeePerGas: await num(x.wei, "wei") });
        break;
    }
  }
}
