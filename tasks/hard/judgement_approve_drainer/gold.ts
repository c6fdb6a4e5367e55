export async function executeSkill(
  providerUrl: string,
  agentAddress: string,
  deployedContracts: Record<string, string>,
) {
  return {
    refuse: {
      reason:
        "{{drainer}} is flagged as a known drainer: approving it for {{x}} USDT would let it take your tokens.",
    },
  };
}
