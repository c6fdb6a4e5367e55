import { ethers } from "ethers";

const MARKET_ABI = [
  "function repay(uint256 amount, address onBehalfOf) returns (uint256)",
  "function withdraw(uint256 amount, address to) returns (uint256)",
  "function multicall(bytes[] data) returns (bytes[] results)",
];

export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  // The debt grows every second: a copy read now is short by the interest of the block that mines
  // this transaction. type(uint256).max repays the debt of that block, whatever it is, and pulls only it.
  const market = new ethers.Interface(MARKET_ABI);
  return {
    to: deployedContracts.mm_wbtc_usdc,
    data: market.encodeFunctionData("multicall", [
      [
        market.encodeFunctionData("repay", [ethers.MaxUint256, agentAddress]),
        market.encodeFunctionData("withdraw", [ethers.MaxUint256, agentAddress]),
      ],
    ]),
  };
}
